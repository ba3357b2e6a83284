#include "server/store/postgres_db.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
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

core::Expected<std::unique_ptr<Connection>> Connection::open(const std::string& conninfo,
                                                             std::chrono::milliseconds timeout) {
    auto connection = std::unique_ptr<Connection>(new Connection(conninfo, timeout));
    if (auto made = connection->establish(connection->deadline(timeout)); !made) {
        if (connection->last_failure().unanswered) {
            return core::make_error("PostgreSQL " + redacted(conninfo) + " did not answer within " +
                                    std::to_string(timeout.count()) + " ms");
        }
        return core::make_error("PostgreSQL " + redacted(conninfo) + ": " + made.error());
    }
    return connection;
}

Connection::~Connection() {
    close();
}

Connection::Deadline Connection::deadline(std::chrono::milliseconds length) const {
    return {Clock::now() + length, length};
}

namespace {

// The server's own timeouts, each only where its settings leave it at the default (a value the
// operator gave, in the URI's options or for the role, the database or the server, wins).
std::string session_settings(std::chrono::milliseconds timeout) {
    const auto ms = [](std::chrono::milliseconds value) {
        return "'" + std::to_string(value.count()) + "'";
    };
    return "SET client_min_messages = warning; SET TIME ZONE 'UTC'; "
           "SELECT set_config(wanted.name, wanted.value, false) FROM (VALUES "
           "('statement_timeout', " +
           ms(statement_timeout(timeout)) + "), ('lock_timeout', " +
           ms(std::min(timeout, lock_timeout)) + "), ('idle_in_transaction_session_timeout', " +
           ms(idle_in_transaction_timeout) +
           ")) AS wanted (name, value) JOIN pg_settings ON pg_settings.name = wanted.name "
           "WHERE pg_settings.source = 'default'";
}

}  // namespace

core::Status Connection::establish(Deadline deadline) {
    close();
    // Ours first: the URI's (expanded from dbname) come after them, and later ones win.
    const auto idle = std::to_string(keepalive_idle_seconds);
    const auto interval = std::to_string(keepalive_interval_seconds);
    const auto count = std::to_string(keepalive_count);
    const char* keys[] = {"keepalives",       "keepalives_idle", "keepalives_interval",
                          "keepalives_count", "dbname",          nullptr};
    const char* values[] = {"1",           idle.c_str(),      interval.c_str(),
                            count.c_str(), conninfo_.c_str(), nullptr};
    conn_ = PQconnectStartParams(keys, values, 1);
    if (!conn_) {
        return core::make_error("out of memory");
    }
    // libpq's connect_timeout does not apply here: the deadline bounds the whole of it.
    auto polling = PGRES_POLLING_WRITING;
    while (PQstatus(conn_) != CONNECTION_BAD && polling != PGRES_POLLING_OK &&
           polling != PGRES_POLLING_FAILED) {
        const int ready =
            wait_for_socket(polling == PGRES_POLLING_READING ? POLLIN : POLLOUT, deadline);
        if (ready == 0) {
            return give_up(deadline);
        }
        if (ready < 0) {
            return broken("cannot wait for the connection");
        }
        polling = PQconnectPoll(conn_);
    }
    if (PQstatus(conn_) != CONNECTION_OK) {
        return broken("cannot connect");
    }
    // Sends never block: a server that stops reading is waited for by the deadline too.
    if (PQsetnonblocking(conn_, 1) != 0) {
        return broken("cannot make the connection non-blocking");
    }
    // Notices ("relation already exists, skipping") are not errors and go nowhere.
    PQsetNoticeProcessor(
        conn_, [](void*, const char*) {}, nullptr);
    return run_sql(session_settings(timeout_), deadline);
}

void Connection::close() {
    if (conn_) {
        PQfinish(conn_);
        conn_ = nullptr;
    }
    prepared_.clear();
}

int Connection::wait_for_socket(short events, Deadline deadline) const {
    const int fd = PQsocket(conn_);
    if (fd < 0) {
        return -1;
    }
    for (;;) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline.at - Clock::now());
        if (left.count() <= 0) {
            return 0;
        }
        pollfd watched{fd, events, 0};
        const int ready = ::poll(&watched, 1, static_cast<int>(left.count()));
        if (ready > 0) {
            if (watched.revents & POLLNVAL) {
                return -1;
            }
            // An error or a hang-up is news for libpq to read, as readable.
            return watched.revents & (POLLERR | POLLHUP) ? (events | POLLIN) : watched.revents;
        }
        if (ready < 0 && errno != EINTR) {
            return -1;
        }
    }
}

core::Status Connection::fail(PGresult* result, std::string_view fallback) {
    const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    failure_.sqlstate = state ? state : "";
    failure_.unanswered = false;
    failure_.message = trimmed(result ? PQresultErrorMessage(result) : nullptr);
    if (failure_.message.empty() && conn_) {
        failure_.message = trimmed(PQerrorMessage(conn_));
    }
    if (failure_.message.empty()) {
        failure_.message = std::string(fallback);
    }
    PQclear(result);
    return core::make_error(failure_.message);
}

core::Status Connection::broken(std::string_view why) {
    auto status = fail(nullptr, why);
    close();
    return status;
}

core::Status Connection::give_up(Deadline deadline) {
    close();
    failure_.message =
        "PostgreSQL did not answer within " + std::to_string(deadline.length.count()) + " ms";
    failure_.sqlstate.clear();
    failure_.unanswered = true;
    return core::make_error(failure_.message);
}

core::Expected<Result> Connection::finish(Deadline deadline) {
    for (;;) {
        const int flushed = PQflush(conn_);
        if (flushed == 0) {
            break;
        }
        if (flushed < 0) {
            return core::make_error(broken("cannot send the statement").error());
        }
        // libpq's buffer is full: the server must read, and may have to be read from first.
        const int ready = wait_for_socket(POLLIN | POLLOUT, deadline);
        if (ready == 0) {
            return core::make_error(give_up(deadline).error());
        }
        if (ready < 0 || ((ready & POLLIN) && !PQconsumeInput(conn_))) {
            return core::make_error(broken("cannot send the statement").error());
        }
    }
    std::optional<Result> last;
    PGresult* failed = nullptr;  // the first result that failed, kept for its message
    for (;;) {
        while (PQisBusy(conn_)) {
            const int ready = wait_for_socket(POLLIN, deadline);
            if (ready == 0) {
                PQclear(failed);
                return core::make_error(give_up(deadline).error());
            }
            if (ready < 0 || !PQconsumeInput(conn_)) {
                if (failed) {
                    // The server said why before it closed (a terminated backend).
                    auto status = fail(failed, "the statement failed");
                    close();
                    return core::make_error(status.error());
                }
                return core::make_error(broken("the connection was lost").error());
            }
        }
        PGresult* result = PQgetResult(conn_);
        if (!result) {
            break;
        }
        const auto status = PQresultStatus(result);
        if (failed || (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)) {
            if (failed) {
                PQclear(result);
            } else {
                failed = result;
            }
            continue;
        }
        last.emplace(result);
    }
    if (failed) {
        return core::make_error(fail(failed, "the statement failed").error());
    }
    if (!last) {
        return core::make_error(fail(nullptr, "the statement failed").error());
    }
    return std::move(*last);
}

core::Status Connection::run_sql(const std::string& sql, Deadline deadline) {
    if (!conn_) {
        return fail(nullptr, "not connected to PostgreSQL");
    }
    if (!PQsendQuery(conn_, sql.c_str())) {
        return broken("cannot send the statement");
    }
    if (auto done = finish(deadline); !done) {
        return core::make_error(done.error());
    }
    return core::ok_status();
}

core::Status Connection::exec(const std::string& sql) {
    return run_sql(sql, deadline(timeout_));
}

core::Status Connection::exec(const std::string& sql, std::chrono::milliseconds timeout) {
    return run_sql(sql, deadline(timeout));
}

core::Expected<Result> Connection::query(const std::string& sql, const Params& params) {
    const auto by = deadline(timeout_);
    if (!conn_) {
        return core::make_error(fail(nullptr, "not connected to PostgreSQL").error());
    }
    auto found = prepared_.find(sql);
    if (found == prepared_.end()) {
        const auto name = "s" + std::to_string(prepared_.size() + 1);
        if (!PQsendPrepare(conn_, name.c_str(), sql.c_str(), 0, nullptr)) {
            return core::make_error(broken("cannot prepare a statement").error());
        }
        if (auto prepared = finish(by); !prepared) {
            return core::make_error(prepared.error());
        }
        found = prepared_.emplace(sql, name).first;
    }
    std::vector<const char*> values;
    values.reserve(params.values().size());
    for (const auto& value : params.values()) {
        values.push_back(value ? value->c_str() : nullptr);
    }
    if (!PQsendQueryPrepared(conn_, found->second.c_str(), static_cast<int>(values.size()),
                             values.data(), nullptr, nullptr, 0)) {
        return core::make_error(broken("cannot send the statement").error());
    }
    return finish(by);
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
    if (!conn_) {
        return false;
    }
    const auto status = PQtransactionStatus(conn_);
    return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE;
}

bool Connection::reconnect() {
    return static_cast<bool>(establish(deadline(timeout_)));
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
