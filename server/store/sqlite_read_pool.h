#pragma once
// Read connections of a SQLite store, lent to one reader at a time. In WAL mode a reader sees the
// last committed transaction and never waits for the writer's lock or its fsync.
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/expected.h"
#include "server/store/sqlite_db.h"

namespace server {

class ReadPool {
public:
    // Connections kept open while nobody reads; more are opened while more threads read at once.
    static constexpr std::size_t max_idle = 8;

    // Opens one read connection to `path` (which must exist) so that a problem shows at once.
    static core::Expected<std::unique_ptr<ReadPool>> open(const std::string& path);

    // Runs `read` on a connection of its own and returns what it returns (a core::Expected); an
    // error naming the path and SQLite's reason when no connection can be had.
    template <class Read>
    auto with(Read&& read) -> decltype(read(std::declval<sqlite::Connection&>())) {
        auto db = acquire();
        if (!db) {
            return core::make_error(db.error());
        }
        auto result = read(**db);
        release(std::move(*db));
        return result;
    }

private:
    explicit ReadPool(std::string path) : path_(std::move(path)) {}
    // An idle connection, or a new one; the error says why it cannot be opened.
    core::Expected<std::unique_ptr<sqlite::Connection>> acquire();
    void release(std::unique_ptr<sqlite::Connection> db);

    std::string path_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<sqlite::Connection>> idle_;
};

}  // namespace server
