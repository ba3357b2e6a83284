#include "server/store/sqlite_db.h"

#include <filesystem>
#include <system_error>

namespace server::sqlite {

Statement::~Statement() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

Statement& Statement::bind(int index, std::string_view text) {
    const int rc = sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                                     SQLITE_TRANSIENT);
    if (rc != SQLITE_OK && !error_) {
        error_ = sqlite3_errmsg(db_);
    }
    return *this;
}

Statement& Statement::bind(int index, std::int64_t value) {
    const int rc = sqlite3_bind_int64(stmt_, index, value);
    if (rc != SQLITE_OK && !error_) {
        error_ = sqlite3_errmsg(db_);
    }
    return *this;
}

Statement& Statement::bind_real(int index, double value) {
    const int rc = sqlite3_bind_double(stmt_, index, value);
    if (rc != SQLITE_OK && !error_) {
        error_ = sqlite3_errmsg(db_);
    }
    return *this;
}

Statement& Statement::bind_null(int index) {
    const int rc = sqlite3_bind_null(stmt_, index);
    if (rc != SQLITE_OK && !error_) {
        error_ = sqlite3_errmsg(db_);
    }
    return *this;
}

bool Statement::step() {
    if (error_) {
        return false;
    }
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) {
        return true;
    }
    if (rc != SQLITE_DONE) {
        error_ = sqlite3_errmsg(db_);
        *failure_code_ = sqlite3_extended_errcode(db_);
    }
    return false;
}

core::Status Statement::run() {
    while (step()) {
    }
    return status();
}

core::Status Statement::status() const {
    if (error_) {
        return core::make_error(*error_);
    }
    return core::ok_status();
}

std::string Statement::text(int column) const {
    const auto* data = sqlite3_column_text(stmt_, column);
    const int size = sqlite3_column_bytes(stmt_, column);
    return data ? std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size))
                : std::string();
}

std::int64_t Statement::integer(int column) const {
    return sqlite3_column_int64(stmt_, column);
}

double Statement::real(int column) const {
    return sqlite3_column_double(stmt_, column);
}

core::Expected<std::unique_ptr<Connection>> Connection::open(const std::string& path,
                                                             OpenMode mode) {
    std::error_code ec;
    if (path != ":memory:" && std::filesystem::is_directory(path, ec)) {
        return core::make_error("database '" + path + "': is a directory, not a database file");
    }
    sqlite3* db = nullptr;
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                      (mode == OpenMode::create ? SQLITE_OPEN_CREATE : 0);
    const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
    if (rc != SQLITE_OK) {
        std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
        sqlite3_close(db);
        return core::make_error("database '" + path + "': cannot open: " + message);
    }
    sqlite3_extended_result_codes(db, 1);
    auto connection = std::unique_ptr<Connection>(new Connection(db));
    if (mode == OpenMode::read_only_use) {
        if (auto guarded = connection->exec("PRAGMA query_only = ON"); !guarded) {
            return core::make_error("database '" + path + "': " + guarded.error());
        }
    }
    return connection;
}

Connection::~Connection() {
    for (auto& [sql, stmt] : cache_) {
        sqlite3_finalize(stmt);
    }
    sqlite3_close(db_);
}

core::Status Connection::exec(const std::string& sql) {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        std::string text = message ? message : sqlite3_errmsg(db_);
        sqlite3_free(message);
        return core::make_error(text);
    }
    return core::ok_status();
}

core::Expected<std::unique_ptr<Statement>> Connection::prepare(const std::string& sql) {
    auto found = cache_.find(sql);
    if (found == cache_.end()) {
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size()),
                               SQLITE_PREPARE_PERSISTENT, &stmt, nullptr) != SQLITE_OK) {
            return core::make_error(sqlite3_errmsg(db_));
        }
        found = cache_.emplace(sql, stmt).first;
    }
    return std::make_unique<Statement>(db_, found->second, &failure_code_);
}

core::Status Connection::run(const std::string& sql) {
    auto stmt = prepare(sql);
    if (!stmt) {
        return core::make_error(stmt.error());
    }
    return (*stmt)->run();
}

core::Expected<std::string> Connection::query_text(const std::string& sql) {
    auto stmt = prepare(sql);
    if (!stmt) {
        return core::make_error(stmt.error());
    }
    if (!(*stmt)->step()) {
        if (auto status = (*stmt)->status(); !status) {
            return core::make_error(status.error());
        }
        return core::make_error("no result from: " + sql);
    }
    return (*stmt)->text(0);
}

}  // namespace server::sqlite
