#pragma once
// A thin RAII layer over libpq, PostgreSQL's C client: one connection, statements prepared once by
// their SQL text, parameters and results as text, and every failure turned into a core::Status
// carrying the server's message and SQLSTATE. Not thread-safe by itself: a connection is used by
// one thread at a time (the store's writer owns one; each read connection is lent to one reader).
#include <libpq-fe.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/expected.h"

namespace server::pg {

// SQLSTATE codes the store tells apart.
inline constexpr std::string_view unique_violation = "23505";
inline constexpr std::string_view foreign_key_violation = "23503";
inline constexpr std::string_view check_violation = "23514";
inline constexpr std::string_view raised_exception = "P0001";

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

// A failed statement: the server's (or libpq's) message and the SQLSTATE ("" when the failure
// came from the connection, not the statement).
struct Failure {
    std::string message;
    std::string sqlstate;
};

class Connection {
public:
    // Connects with a libpq connection string or URI ("postgresql://user@host:5432/db"); the error
    // names the server (never the password) and says why.
    static core::Expected<std::unique_ptr<Connection>> open(const std::string& conninfo);
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    ~Connection();

    // Runs one or more statements without parameters or results (schema, BEGIN/COMMIT).
    core::Status exec(const std::string& sql);
    // Runs one statement, prepared on this connection the first time its text is seen. On
    // failure, last_failure() says why and with which SQLSTATE.
    core::Expected<Result> query(const std::string& sql, const Params& params = Params());
    // The single value of a one-row, one-column query; nullopt when it returned no row.
    core::Expected<std::optional<std::string>> query_text(const std::string& sql,
                                                          const Params& params = Params());

    const Failure& last_failure() const { return failure_; }
    // True between BEGIN and COMMIT/ROLLBACK, also once a statement failed inside it.
    bool in_transaction() const;
    // False once the server went away; reconnect() tries again (prepared statements are lost).
    bool healthy() const { return PQstatus(conn_) == CONNECTION_OK; }
    bool reconnect();

private:
    explicit Connection(PGconn* conn) : conn_(conn) {}
    core::Status fail(PGresult* result, std::string_view fallback);

    PGconn* conn_;
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
