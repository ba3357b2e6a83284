#include "server/store/sqlite_read_pool.h"

namespace server {

namespace {

core::Expected<std::unique_ptr<sqlite::Connection>> open_reader(const std::string& path) {
    auto db = sqlite::Connection::open(path, sqlite::OpenMode::read_only_use);
    if (!db) {
        return core::make_error(db.error());
    }
    // A reader waits only while another process recovers or checkpoints the WAL file.
    sqlite3_busy_timeout((*db)->handle(), sqlite::busy_timeout_ms);
    return std::move(*db);
}

}  // namespace

core::Expected<std::unique_ptr<ReadPool>> ReadPool::open(const std::string& path) {
    auto first = open_reader(path);
    if (!first) {
        return core::make_error(first.error());
    }
    std::unique_ptr<ReadPool> pool(new ReadPool(path));
    pool->idle_.push_back(std::move(*first));
    return pool;
}

core::Expected<std::unique_ptr<sqlite::Connection>> ReadPool::acquire() {
    {
        std::lock_guard lock(mutex_);
        if (!idle_.empty()) {
            auto db = std::move(idle_.back());
            idle_.pop_back();
            return db;
        }
    }
    auto db = open_reader(path_);
    if (!db) {
        return core::make_error("cannot open a read connection: " + db.error());
    }
    return db;
}

void ReadPool::release(std::unique_ptr<sqlite::Connection> db) {
    std::lock_guard lock(mutex_);
    if (idle_.size() < max_idle) {
        idle_.push_back(std::move(db));
    }
}

}  // namespace server
