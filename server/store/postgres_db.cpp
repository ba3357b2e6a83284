#include "server/store/postgres_db.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace server::pg {

Params& Params::add(double value) {
    char text[64];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, value);
    values_.emplace_back(ec == std::errc{} ? std::string(text, end) : std::string("NaN"));
    return *this;
}

Result& Result::operator=(Result&& other) noexcept {
    if (this != &other) {
        PQclear(result_);
        result_ = other.result_;
        other.result_ = nullptr;
    }
    return *this;
}

Result::~Result() {
    PQclear(result_);
}

std::int64_t Result::affected() const {
    const char* count = PQcmdTuples(result_);
    return count && *count ? std::strtoll(count, nullptr, 10) : 0;
}

std::string Result::text(int row, int column) const {
    return std::string(PQgetvalue(result_, row, column),
                       static_cast<std::size_t>(PQgetlength(result_, row, column)));
}

std::int64_t Result::integer(int row, int column) const {
    return std::strtoll(PQgetvalue(result_, row, column), nullptr, 10);
}

double Result::real(int row, int column) const {
    return std::strtod(PQgetvalue(result_, row, column), nullptr);
}

namespace {

// libpq's messages end with a newline; ours do not.
std::string trimmed(const char* message) {
    std::string text = message ? message : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
        text.pop_back();
    }
    return text;
}

}  // namespace

core::Expected<std::unique_ptr<Connection>> Connection::open(const std::string& conninfo) {
    PGconn* conn = PQconnectdb(conninfo.c_str());
    if (!conn) {
        return core::make_error("PostgreSQL " + redacted(conninfo) + ": out of memory");
    }
    if (PQstatus(conn) != CONNECTION_OK) {
        auto why = trimmed(PQerrorMessage(conn));
        PQfinish(conn);
        return core::make_error("PostgreSQL " + redacted(conninfo) + ": " + why);
    }
    auto connection = std::unique_ptr<Connection>(new Connection(conn));
    // Notices ("relation already exists, skipping") are not errors and go nowhere.
    PQsetNoticeProcessor(
        conn, [](void*, const char*) {}, nullptr);
    if (auto set = connection->exec("SET client_min_messages = warning; SET TIME ZONE 'UTC'");
        !set) {
        return core::make_error("PostgreSQL " + redacted(conninfo) + ": " + set.error());
    }
    return connection;
}

Connection::~Connection() {
    PQfinish(conn_);
}

core::Status Connection::fail(PGresult* result, std::string_view fallback) {
    const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    failure_.sqlstate = state ? state : "";
    failure_.message = trimmed(result ? PQresultErrorMessage(result) : PQerrorMessage(conn_));
    if (failure_.message.empty()) {
        failure_.message = trimmed(PQerrorMessage(conn_));
    }
    if (failure_.message.empty()) {
        failure_.message = std::string(fallback);
    }
    PQclear(result);
    return core::make_error(failure_.message);
}

core::Status Connection::exec(const std::string& sql) {
    PGresult* result = PQexec(conn_, sql.c_str());
    const auto status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        return fail(result, "the statement failed");
    }
    PQclear(result);
    return core::ok_status();
}

core::Expected<Result> Connection::query(const std::string& sql, const Params& params) {
    auto found = prepared_.find(sql);
    if (found == prepared_.end()) {
        const auto name = "s" + std::to_string(prepared_.size() + 1);
        PGresult* prepared = PQprepare(conn_, name.c_str(), sql.c_str(), 0, nullptr);
        if (!prepared || PQresultStatus(prepared) != PGRES_COMMAND_OK) {
            return core::make_error(fail(prepared, "cannot prepare a statement").error());
        }
        PQclear(prepared);
        found = prepared_.emplace(sql, name).first;
    }
    std::vector<const char*> values;
    values.reserve(params.values().size());
    for (const auto& value : params.values()) {
        values.push_back(value ? value->c_str() : nullptr);
    }
    PGresult* result = PQexecPrepared(conn_, found->second.c_str(), static_cast<int>(values.size()),
                                      values.data(), nullptr, nullptr, 0);
    const auto status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        return core::make_error(fail(result, "the statement failed").error());
    }
    return Result(result);
}

core::Expected<std::optional<std::string>> Connection::query_text(const std::string& sql,
                                                                  const Params& params) {
    auto result = query(sql, params);
    if (!result) {
        return core::make_error(result.error());
    }
    if (result->rows() == 0) {
        return std::optional<std::string>();
    }
    return std::optional<std::string>(result->text(0, 0));
}

bool Connection::in_transaction() const {
    const auto status = PQtransactionStatus(conn_);
    return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE;
}

bool Connection::reconnect() {
    PQreset(conn_);
    prepared_.clear();
    if (!healthy()) {
        return false;
    }
    PQsetNoticeProcessor(
        conn_, [](void*, const char*) {}, nullptr);
    return static_cast<bool>(exec("SET client_min_messages = warning; SET TIME ZONE 'UTC'"));
}

core::Status run(Connection& db, const std::string& sql, const Params& params,
                 std::string_view what) {
    auto result = db.query(sql, params);
    if (!result) {
        return core::make_error(std::string(what) + ": " + result.error());
    }
    return core::ok_status();
}

bool is_postgres_url(std::string_view conninfo) {
    return conninfo.substr(0, 13) == "postgresql://" || conninfo.substr(0, 11) == "postgres://";
}

std::string redacted(std::string_view conninfo) {
    // postgresql://user:password@host/… → postgresql://user:***@host/…
    const auto scheme = conninfo.find("://");
    if (scheme == std::string_view::npos) {
        return std::string(conninfo.substr(0, conninfo.find("password")));
    }
    const auto at = conninfo.find('@', scheme + 3);
    const auto colon = conninfo.find(':', scheme + 3);
    if (at == std::string_view::npos || colon == std::string_view::npos || colon > at) {
        return std::string(conninfo);
    }
    return std::string(conninfo.substr(0, colon + 1)) + "***" + std::string(conninfo.substr(at));
}

}  // namespace server::pg
