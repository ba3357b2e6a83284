#pragma once
// A thin RAII layer over libpq, PostgreSQL's C client: one connection, statements prepared once by
// their SQL text, parameters and results as text, and every failure turned into a core::Status
// carrying the server's message and SQLSTATE. Not thread-safe by itself: a connection is used by
// one thread at a time (the store's writer owns one; each read connection is lent to one reader).
//
// Every call has a deadline (issue 42, finding 2): libpq's asynchronous API and poll(2), because a
// paused server's kernel still acknowledges TCP, so that neither keepalives nor a TCP timeout ever
// fire. A call the server does not answer in time gives the connection up (closed: healthy() turns
// false and the next use connects again) and is an error saying so. The server is told at connect
// to end by itself what a vanished client left (statement_timeout, lock_timeout,
// idle_in_transaction_session_timeout), unless its own settings (the URI's `options`, ALTER ROLE or
// DATABASE … SET, postgresql.conf) already say otherwise.
#include <libpq-fe.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/expected.h"

namespace server::pg {

// SQLSTATE codes the store tells apart.
inline constexpr std::string_view unique_violation = "23505";
inline constexpr std::string_view foreign_key_violation = "23503";
inline constexpr std::string_view check_violation = "23514";
inline constexpr std::string_view raised_exception = "P0001";

// How long a call waits for the server's answer, connecting included (--store-timeout-ms).
inline constexpr std::chrono::milliseconds default_timeout{5000};
// The server's statement_timeout for calls of `timeout`: a little shorter, so that a statement
// that is only slow is ended by the server itself, and the connection kept.
constexpr std::chrono::milliseconds statement_timeout(std::chrono::milliseconds timeout) {
    return timeout * 9 / 10 > std::chrono::milliseconds(0) ? timeout * 9 / 10
                                                           : std::chrono::milliseconds(1);
}
// The server's lock_timeout (at most the call's timeout): a claim never waits long on a row lock a
// stale owner holds (issue 42, finding 15).
inline constexpr std::chrono::milliseconds lock_timeout{1000};
// The server's idle_in_transaction_session_timeout: about a lease, after which the server ends the
// transaction of a client that went silent in the middle of it (and releases its locks).
inline constexpr std::chrono::milliseconds idle_in_transaction_timeout{5000};
// TCP keepalives on every connection (libpq's keepalives_idle, _interval, _count, in seconds).
inline constexpr int keepalive_idle_seconds = 10;
inline constexpr int keepalive_interval_seconds = 5;
inline constexpr int keepalive_count = 3;

// A statement's parameters, in order, as text ($1, $2, …); nullopt is SQL NULL.
class Params {
public:
    Params() = default;
    template <class... Values>
    explicit Params(const Values&... values) {
        (add(values), ...);
    }
    Params& add(std::string_view text) {
        values_.emplace_back(std::string(text));
        return *this;
    }
    Params& add(const std::string& text) { return add(std::string_view(text)); }
    Params& add(const char* text) { return add(std::string_view(text)); }
    Params& add(bool value) { return add(std::string_view(value ? "1" : "0")); }
    // Integers of every width, written in decimal.
    template <class Int, std::enable_if_t<std::is_integral_v<Int>, int> = 0>
    Params& add(Int value) {
        values_.emplace_back(std::to_string(value));
        return *this;
    }
    // A double, written so that it reads back bit for bit.
    Params& add(double value);
    Params& add_null() {
        values_.emplace_back(std::nullopt);
        return *this;
    }
    const std::vector<std::optional<std::string>>& values() const { return values_; }

private:
    std::vector<std::optional<std::string>> values_;
};

// The rows of a query, as text.
class Result {
public:
    explicit Result(PGresult* result) : result_(result) {}
    Result(Result&& other) noexcept : result_(other.result_) { other.result_ = nullptr; }
    Result& operator=(Result&& other) noexcept;
    Result(const Result&) = delete;
    Result& operator=(const Result&) = delete;
    ~Result();

    int rows() const { return PQntuples(result_); }
    // Rows an INSERT, UPDATE or DELETE touched.
    std::int64_t affected() const;
    bool is_null(int row, int column) const { return PQgetisnull(result_, row, column) != 0; }
    std::string text(int row, int column) const;
    std::int64_t integer(int row, int column) const;
    double real(int row, int column) const;

private:
    PGresult* result_;
};

// One row of a Result, read as a SQLite statement's current row is (sql_rows.h decodes both).
class Row {
public:
    Row(const Result& result, int row) : result_(result), row_(row) {}
    std::string text(int column) const { return result_.text(row_, column); }
    std::int64_t integer(int column) const { return result_.integer(row_, column); }
    double real(int column) const { return result_.real(row_, column); }

private:
    const Result& result_;
    int row_;
};

// A failed statement: the server's (or libpq's) message and the SQLSTATE ("" when the failure
// came from the connection, not the statement).
struct Failure {
    std::string message;
    std::string sqlstate;
    bool unanswered = false;  // no answer within the deadline: the connection was given up
};

class Connection {
public:
    // Connects with a libpq connection string or URI ("postgresql://user@host:5432/db") within
    // `timeout`, which then bounds every call; the error names the server (never the password)
    // and says why. Keepalives are asked for before the URI's own settings, which win; the URI's
    // connect_timeout does not apply (the deadline does, shared by a multi-host URI's hosts).
    static core::Expected<std::unique_ptr<Connection>> open(
        const std::string& conninfo, std::chrono::milliseconds timeout = default_timeout);
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    ~Connection();

    // Runs one or more statements without parameters or results (schema, BEGIN/COMMIT).
    core::Status exec(const std::string& sql);
    // The same within `timeout` instead of the connection's (a migration's longer steps).
    core::Status exec(const std::string& sql, std::chrono::milliseconds timeout);
    // Runs one statement, prepared on this connection the first time its text is seen. On
    // failure, last_failure() says why and with which SQLSTATE.
    core::Expected<Result> query(const std::string& sql, const Params& params = Params());
    // The single value of a one-row, one-column query; nullopt when it returned no row.
    core::Expected<std::optional<std::string>> query_text(const std::string& sql,
                                                          const Params& params = Params());

    const Failure& last_failure() const { return failure_; }
    // True between BEGIN and COMMIT/ROLLBACK, also once a statement failed inside it.
    bool in_transaction() const;
    // False once the server went away or a call was given up; reconnect() opens a new connection
    // within the timeout (prepared statements are lost) and says whether it could.
    bool healthy() const { return conn_ && PQstatus(conn_) == CONNECTION_OK; }
    bool reconnect();
    std::chrono::milliseconds timeout() const { return timeout_; }

private:
    using Clock = std::chrono::steady_clock;
    // When a call must be answered by, and how long it was given (for its message).
    struct Deadline {
        Clock::time_point at;
        std::chrono::milliseconds length;
    };

    Connection(std::string conninfo, std::chrono::milliseconds timeout)
        : conninfo_(std::move(conninfo)), timeout_(timeout) {}
    Deadline deadline(std::chrono::milliseconds length) const;
    // Connects anew and sets up the session, all by the deadline.
    core::Status establish(Deadline deadline);
    // Waits until the socket is ready for `events` (POLLIN, POLLOUT): the events it is ready for,
    // 0 once the deadline passed, -1 when it cannot be waited for.
    int wait_for_socket(short events, Deadline deadline) const;
    // Sends what libpq still holds of a query sent, then reads every result: the last one, or the
    // first that failed as an error. A deadline passed gives the connection up.
    core::Expected<Result> finish(Deadline deadline);
    core::Status run_sql(const std::string& sql, Deadline deadline);
    core::Status fail(PGresult* result, std::string_view fallback);
    // Closes the connection after an exchange that broke off (`why`, or libpq's reason).
    core::Status broken(std::string_view why);
    // Closes the connection: the server did not answer by `deadline`.
    core::Status give_up(Deadline deadline);
    void close();

    std::string conninfo_;
    std::chrono::milliseconds timeout_;
    PGconn* conn_ = nullptr;
    Failure failure_;
    std::map<std::string, std::string, std::less<>> prepared_;  // SQL text → statement name
};

// Runs `sql` with `params`, expecting no rows; the error names the write ("append_event: …").
core::Status run(Connection& db, const std::string& sql, const Params& params,
                 std::string_view what);

// Whether `conninfo` asks for PostgreSQL rather than a SQLite file.
bool is_postgres_url(std::string_view conninfo);
// `conninfo` with any password replaced by "***", for messages and logs.
std::string redacted(std::string_view conninfo);

}  // namespace server::pg
