#pragma once
// A thin RAII layer over the SQLite C API: one connection, prepared statements cached by their SQL
// text, and every failure turned into a core::Status carrying SQLite's message. Not thread-safe by
// itself: a connection is used by one thread at a time (the store's writer thread owns the write
// connection; each read connection is lent to one reader at a time).
#include <sqlite3.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/expected.h"

namespace server::sqlite {

// How long a connection waits for another's lock before SQLITE_BUSY.
inline constexpr int busy_timeout_ms = 5000;

// A cached prepared statement in use: binds parameters, steps through rows, and resets itself (and
// clears its bindings) when it goes out of scope so the cache can hand it out again.
class Statement {
public:
    Statement(sqlite3* db, sqlite3_stmt* stmt, int* failure_code)
        : db_(db), stmt_(stmt), failure_code_(failure_code) {}
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement();

    Statement& bind(int index, std::string_view text);
    Statement& bind(int index, std::int64_t value);
    Statement& bind_real(int index, double value);
    Statement& bind_null(int index);

    // Advances to the next row: true while a row is available, false when done; an error is
    // remembered and reported by status().
    bool step();
    // Steps to the end, expecting no rows; the status of the whole execution.
    core::Status run();
    // The first error met by bind or step, with SQLite's message.
    core::Status status() const;

    std::string text(int column) const;
    std::int64_t integer(int column) const;
    double real(int column) const;

private:
    sqlite3* db_;
    sqlite3_stmt* stmt_;
    int* failure_code_;  // where the extended code of a failed step is reported
    std::optional<std::string> error_;
};

enum class OpenMode {
    create,        // read-write, creating the file if absent
    existing,      // read-write, the file must exist
    read_only_use  // like `existing`, and the connection refuses every write (PRAGMA query_only)
};

class Connection {
public:
    // Opens the file as `mode` says; the error names the path.
    static core::Expected<std::unique_ptr<Connection>> open(const std::string& path,
                                                            OpenMode mode = OpenMode::create);
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    ~Connection();

    // Runs one or more statements without results (schema changes, PRAGMAs, BEGIN/COMMIT).
    core::Status exec(const std::string& sql);
    // The prepared statement for `sql` from the cache (prepared on first use).
    core::Expected<std::unique_ptr<Statement>> prepare(const std::string& sql);
    // The single value of a one-row, one-column query (a PRAGMA, a count).
    core::Expected<std::string> query_text(const std::string& sql);

    // The extended result code of the last failed step, e.g. SQLITE_CONSTRAINT_PRIMARYKEY.
    int last_error_code() const { return failure_code_; }
    std::int64_t changes() const { return sqlite3_changes64(db_); }
    // True between BEGIN and COMMIT/ROLLBACK; false again after SQLite rolled a transaction back by
    // itself (disk full, I/O error).
    bool in_transaction() const { return sqlite3_get_autocommit(db_) == 0; }
    // Runs `sql` (one statement without results) through the statement cache.
    core::Status run(const std::string& sql);
    sqlite3* handle() const { return db_; }

private:
    explicit Connection(sqlite3* db) : db_(db) {}
    sqlite3* db_;
    int failure_code_ = SQLITE_OK;
    std::map<std::string, sqlite3_stmt*, std::less<>> cache_;
};

// Runs `body` inside BEGIN IMMEDIATE … COMMIT, rolling back if it (or the commit) fails.
template <class Body>
core::Status in_transaction(Connection& db, Body&& body) {
    if (auto begun = db.exec("BEGIN IMMEDIATE"); !begun) {
        return begun;
    }
    core::Status result = body();
    if (result) {
        result = db.exec("COMMIT");
    }
    if (!result) {
        (void)db.exec("ROLLBACK");
    }
    return result;
}

// Prepares `sql` (cached), lets `bind` fill its parameters, and runs it to completion: what the
// writes of a batch do, one statement each.
template <class Bind>
core::Status run(Connection& db, const std::string& sql, Bind&& bind) {
    auto stmt = db.prepare(sql);
    if (!stmt) {
        return core::make_error(stmt.error());
    }
    bind(**stmt);
    return (*stmt)->run();
}

// `status`, its error named by the write that failed ("append_event: …").
inline core::Status annotate(core::Status status, std::string_view what) {
    if (status) {
        return status;
    }
    return core::make_error(std::string(what) + ": " + status.error());
}

}  // namespace server::sqlite
