#pragma once
// The single writer of a SQLite store. One thread owns the write connection; commit() only queues.
// The thread takes everything queued (at most max_group_batches batches or about max_group_bytes of
// text), writes it in one transaction with a savepoint per batch — a batch that fails is rolled
// back alone and gets its error, the others stay — and commits once: one fsync for the whole
// group. Then it calls each batch's handler, in queue order, on its own thread.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/expected.h"
#include "server/store/sqlite_db.h"
#include "server/store/store.h"

namespace server {

class SqliteWriter {
public:
    static constexpr std::size_t max_group_batches = 512;
    static constexpr std::size_t max_group_bytes = std::size_t{4} << 20;

    // Takes the configured, migrated write connection and starts the thread.
    explicit SqliteWriter(std::unique_ptr<sqlite::Connection> db);
    SqliteWriter(const SqliteWriter&) = delete;
    SqliteWriter& operator=(const SqliteWriter&) = delete;
    // stop(), then closes the connection.
    ~SqliteWriter();

    // Queues `batch`; `done` is called exactly once on the writer thread with the outcome. After
    // stop() has finished, `done` is called at once, on the caller's thread, with an error.
    void submit(WriteBatch batch, CommitHandler done);

    // Writes everything queued (and whatever its handlers queue in turn), then joins the thread.
    // Idempotent; never call it from a handler.
    void stop();

    // Runs `read` on the write connection between groups (it waits while a group is written): for
    // a ":memory:" database, which no other connection can see.
    template <class Read>
    auto with_connection(Read&& read) {
        std::lock_guard lock(db_mutex_);
        return read(*db_);
    }

private:
    struct Pending {
        WriteBatch batch;
        CommitHandler done;
    };

    void run();
    // Waits for work and takes the next group; empty once stopping and nothing is left.
    std::vector<Pending> take_group();
    // The outcome of each batch of the group, every one of them final (committed or rolled back).
    std::vector<core::Status> write_group(const std::vector<Pending>& group);
    // One transaction over group[first…]; returns where the next transaction starts.
    std::size_t write_transaction(const std::vector<Pending>& group, std::size_t first,
                                  std::vector<core::Status>& outcomes);

    std::mutex queue_mutex_;
    std::condition_variable wake_;
    std::deque<Pending> queue_;
    bool stopping_ = false;
    bool stopped_ = false;

    std::mutex
        db_mutex_;  // held while a group is written; readers of a ":memory:" database take it
    std::unique_ptr<sqlite::Connection> db_;
    std::thread thread_;  // last: started once everything above is ready
};

}  // namespace server
