#include "server/store/sqlite_writer.h"

#include <cassert>
#include <exception>
#include <string>
#include <type_traits>

#include "server/log.h"
#include "server/store/sqlite_writes.h"

namespace server {

namespace {

using sqlite::Connection;

// About how many bytes of text a batch carries: what the group's byte cap counts.
std::size_t text_bytes(const WriteBatch& batch) {
    std::size_t bytes = 0;
    for (const auto& op : batch) {
        bytes += std::visit(
            [](const auto& w) -> std::size_t {
                using W = std::decay_t<decltype(w)>;
                if constexpr (std::is_same_v<W, AppendEvents>) {
                    std::size_t sum = w.game_id.size();
                    for (const auto& event : w.events) {
                        sum += event.size();
                    }
                    return sum;
                } else if constexpr (std::is_same_v<W, SaveSeek>) {
                    return w.seek.id.size() + w.seek.json.size();
                } else {
                    return 64;
                }
            },
            op);
    }
    return bytes;
}

// Rolls the whole transaction back, if SQLite has not already done so.
void abandon(Connection& db) {
    if (db.in_transaction()) {
        (void)db.run("ROLLBACK");
    }
}

// Runs one batch inside its own savepoint: either all of it stays in the transaction or none of
// it. If the savepoint itself cannot be opened, released or rolled back, the whole transaction is
// rolled back, so that nothing half-written is ever committed.
core::Status write_batch(Connection& db, const WriteBatch& batch) {
    if (auto opened = db.run("SAVEPOINT batch"); !opened) {
        abandon(db);
        return core::make_error("cannot open a savepoint: " + opened.error());
    }
    core::Status status = core::ok_status();
    for (const auto& op : batch) {
        status = apply_write(db, op);
        if (!status) {
            break;
        }
    }
    if (status) {
        if (auto released = db.run("RELEASE batch"); !released) {
            abandon(db);
            return core::make_error("cannot release a savepoint: " + released.error());
        }
        return status;
    }
    if (db.in_transaction() && (!db.run("ROLLBACK TO batch") || !db.run("RELEASE batch"))) {
        abandon(db);
    }
    return status;
}

// Calls `done` (if any); an exception it throws is logged, never let into the writer's loop.
void call_handler(const CommitHandler& done, core::Status outcome) {
    if (!done) {
        return;
    }
    try {
        done(std::move(outcome));
    } catch (const std::exception& e) {
        component_logger("store")->error("a commit handler threw: {}", e.what());
    } catch (...) {
        component_logger("store")->error("a commit handler threw");
    }
}

}  // namespace

SqliteWriter::SqliteWriter(std::unique_ptr<Connection> db)
    : db_(std::move(db)), thread_([this] { run(); }) {}

SqliteWriter::~SqliteWriter() {
    stop();
}

void SqliteWriter::submit(WriteBatch batch, CommitHandler done) {
    {
        std::lock_guard lock(queue_mutex_);
        if (!stopped_) {
            queue_.push_back(Pending{std::move(batch), std::move(done)});
            wake_.notify_one();
            return;
        }
    }
    call_handler(done, core::make_error("the store is closed; nothing was written"));
}

void SqliteWriter::stop() {
    if (!thread_.joinable()) {
        return;
    }
    assert(thread_.get_id() != std::this_thread::get_id() && "stop() called from a handler");
    {
        std::lock_guard lock(queue_mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

void SqliteWriter::run() {
    for (;;) {
        auto group = take_group();
        if (group.empty()) {
            return;
        }
        auto outcomes = write_group(group);
        for (std::size_t i = 0; i < group.size(); ++i) {
            call_handler(group[i].done, std::move(outcomes[i]));
        }
    }
}

std::vector<SqliteWriter::Pending> SqliteWriter::take_group() {
    std::unique_lock lock(queue_mutex_);
    wake_.wait(lock, [this] { return !queue_.empty() || stopping_; });
    std::vector<Pending> group;
    std::size_t bytes = 0;
    while (!queue_.empty() && group.size() < max_group_batches && bytes < max_group_bytes) {
        bytes += text_bytes(queue_.front().batch);
        group.push_back(std::move(queue_.front()));
        queue_.pop_front();
    }
    if (group.empty()) {
        stopped_ = true;  // stopping, and nothing is left: later submits are refused at once
    }
    return group;
}

std::vector<core::Status> SqliteWriter::write_group(const std::vector<Pending>& group) {
    std::vector<core::Status> outcomes(group.size(), core::ok_status());
    std::lock_guard lock(db_mutex_);
    for (std::size_t next = 0; next < group.size();) {
        next = write_transaction(group, next, outcomes);
    }
    return outcomes;
}

// Batches group[first…] share one BEGIN IMMEDIATE … COMMIT. A batch that fails is rolled back to
// its savepoint and the rest go on. Should SQLite roll the whole transaction back by itself (disk
// full, I/O error), the batches before it lose their writes too and are told so; the next
// transaction starts after the failed batch.
std::size_t SqliteWriter::write_transaction(const std::vector<Pending>& group, std::size_t first,
                                            std::vector<core::Status>& outcomes) {
    Connection& db = *db_;
    const auto fail = [&](std::size_t from, std::size_t to, const std::string& why) {
        for (std::size_t i = from; i < to; ++i) {
            if (outcomes[i]) {
                outcomes[i] = core::make_error(why);
            }
        }
    };
    if (auto begun = db.run("BEGIN IMMEDIATE"); !begun) {
        fail(first, group.size(), "cannot start a transaction: " + begun.error());
        return group.size();
    }
    for (std::size_t i = first; i < group.size(); ++i) {
        outcomes[i] = write_batch(db, group[i].batch);
        if (!outcomes[i] && !db.in_transaction()) {
            fail(first, i,
                 "rolled back with the transaction, which failed: " + outcomes[i].error());
            return i + 1;
        }
    }
    if (auto committed = db.run("COMMIT"); !committed) {
        abandon(db);
        fail(first, group.size(), "commit failed: " + committed.error());
    }
    return group.size();
}

}  // namespace server
