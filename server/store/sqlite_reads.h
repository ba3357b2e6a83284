#pragma once
// The store's reads as queries on one connection: a read connection from the pool, or (for a
// ":memory:" database) the writer's connection while the writer is idle. A query that fails
// (prepare, bind or step) returns an error naming what was read and SQLite's message; an empty
// result means the rows are not there.
#include <optional>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "server/store/sqlite_db.h"
#include "server/store/store.h"

namespace server::sqlite_reads {

core::Expected<std::optional<PlayerRecord>> player(sqlite::Connection& db, std::string_view id);
core::Expected<std::optional<PlayerRecord>> player_by_token_hash(sqlite::Connection& db,
                                                                 std::string_view token_hash);
core::Expected<std::optional<GameRecord>> game(sqlite::Connection& db, std::string_view id);
core::Expected<std::vector<GameRecord>> unfinished_games(sqlite::Connection& db);
core::Expected<std::vector<std::string>> unfinished_game_ids_of(sqlite::Connection& db,
                                                                std::string_view player_id);
core::Expected<std::vector<GameRecord>> tournament_games(sqlite::Connection& db,
                                                         std::string_view tournament_id);
core::Expected<std::vector<StoredEvent>> events(sqlite::Connection& db, std::string_view game_id,
                                                std::int64_t after_version);
core::Expected<std::vector<ChatLine>> chat_lines(sqlite::Connection& db, std::string_view game_id);
core::Expected<std::vector<SeekRecord>> seeks(sqlite::Connection& db);

// Runs `sql`, lets `bind` fill its parameters and `row` read each row; an error saying "reading
// <what>: <SQLite's message>" if preparing, binding or stepping failed.
template <class Bind, class Row>
core::Status query(sqlite::Connection& db, std::string_view what, const std::string& sql,
                   Bind&& bind, Row&& row) {
    auto stmt = db.prepare(sql);
    if (!stmt) {
        return core::make_error("reading " + std::string(what) + ": " + stmt.error());
    }
    bind(**stmt);
    while ((*stmt)->step()) {
        row(static_cast<const sqlite::Statement&>(**stmt));
    }
    if (auto status = (*stmt)->status(); !status) {
        return core::make_error("reading " + std::string(what) + ": " + status.error());
    }
    return core::ok_status();
}

// `value`, or the error `status` reports.
template <class T>
core::Expected<T> or_error(const core::Status& status, T value) {
    if (!status) {
        return core::make_error(status.error());
    }
    return value;
}

}  // namespace server::sqlite_reads
