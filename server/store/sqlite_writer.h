#pragma once
// The single writer of a SQLite store. One thread (group_writer.h) owns the write connection;
// commit() only queues. The thread writes each group in one transaction with a savepoint per batch
// — a batch that fails is rolled back alone and gets its error, the others stay — and commits
// once: one fsync for the whole group.
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "core/expected.h"
#include "server/store/group_writer.h"
#include "server/store/sqlite_db.h"
#include "server/store/store.h"

namespace server {

class SqliteWriter {
public:
    static constexpr std::size_t max_group_batches = GroupWriter::max_group_batches;
    static constexpr std::size_t max_group_bytes = GroupWriter::max_group_bytes;

    // Takes the configured, migrated write connection and starts the thread.
    explicit SqliteWriter(std::unique_ptr<sqlite::Connection> db);
    SqliteWriter(const SqliteWriter&) = delete;
    SqliteWriter& operator=(const SqliteWriter&) = delete;
    // stop(), then closes the connection.
    ~SqliteWriter();

    // Queues `batch`; `done` is called exactly once on the writer thread with the outcome. After
    // stop() has finished, `done` is called at once, on the caller's thread, with an error.
    void submit(WriteBatch batch, CommitHandler done) {
        group_.submit(std::move(batch), std::move(done));
    }

    // Writes everything queued (and whatever its handlers queue in turn), then joins the thread.
    // Idempotent; never call it from a handler.
    void stop() { group_.stop(); }

    // Runs `read` on the write connection between groups (it waits while a group is written): for
    // a ":memory:" database, which no other connection can see.
    template <class Read>
    auto with_connection(Read&& read) {
        std::lock_guard lock(db_mutex_);
        return read(*db_);
    }

private:
    using Pending = GroupWriter::Pending;

    // The outcome of each batch of the group, every one of them final (committed or rolled back).
    std::vector<core::Status> write_group(const std::vector<Pending>& group);
    // One transaction over group[first…]; returns where the next transaction starts.
    std::size_t write_transaction(const std::vector<Pending>& group, std::size_t first,
                                  std::vector<core::Status>& outcomes);

    std::mutex
        db_mutex_;  // held while a group is written; readers of a ":memory:" database take it
    std::unique_ptr<sqlite::Connection> db_;
    GroupWriter group_;  // last: its thread starts once everything above is ready
};

}  // namespace server
