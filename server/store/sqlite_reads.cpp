#include "server/store/sqlite_reads.h"

#include <string>

#include "server/store/sql_reads.h"
#include "server/store/sql_rows.h"
#include "server/store/sql_tournaments.h"

namespace server::sqlite_reads {

namespace {

using sqlite::Connection;
using sqlite::Statement;

constexpr auto dialect = sql::Dialect::sqlite;

core::Expected<std::optional<PlayerRecord>> find_player(Connection& db, std::string_view what,
                                                        const std::string& sql,
                                                        std::string_view key) {
    std::optional<PlayerRecord> found;
    auto status = query(
        db, what, sql, [&](Statement& s) { s.bind(1, key); },
        [&](const Statement& s) { found = sql::player_from_row(s); });
    return or_error(status, std::move(found));
}

// The games reads::games selects with `where`, each with its seats. Seats never change after a
// game's creation, so reading them in a second statement sees the same games.
template <class Bind>
core::Expected<std::vector<GameRecord>> query_games(Connection& db, std::string_view what,
                                                    std::string_view where, Bind&& bind) {
    std::vector<GameRecord> games;
    auto status = query(db, what, sql::reads::games(dialect, where), bind,
                        [&](const Statement& s) { games.push_back(sql::game_from_row(s)); });
    if (!status) {
        return core::make_error(status.error());
    }
    const auto seats_sql = sql::reads::seats_of_game(dialect);
    for (auto& g : games) {
        auto seats = query(
            db, "the seats of game " + g.id, seats_sql, [&](Statement& s) { s.bind(1, g.id); },
            [&](const Statement& s) { g.seats.push_back(s.text(0)); });
        if (!seats) {
            return core::make_error(seats.error());
        }
    }
    return games;
}

}  // namespace

core::Expected<std::optional<PlayerRecord>> player(Connection& db, std::string_view id) {
    return find_player(db, "player " + std::string(id), sql::reads::player(dialect), id);
}

core::Expected<std::optional<PlayerRecord>> player_by_token_hash(Connection& db,
                                                                 std::string_view token_hash) {
    return find_player(db, "the player of a session token",
                       sql::reads::player_by_token_hash(dialect), token_hash);
}

core::Expected<std::optional<GameRecord>> game(Connection& db, std::string_view id) {
    auto games = query_games(db, "game " + std::string(id), sql::reads::game_by_id,
                             [&](Statement& s) { s.bind(1, id); });
    if (!games) {
        return core::make_error(games.error());
    }
    if (games->empty()) {
        return std::nullopt;
    }
    return std::move(games->front());
}

core::Expected<std::vector<GameRecord>> unfinished_games(Connection& db) {
    return query_games(db, "the unfinished games", sql::reads::unfinished_games_clause(dialect),
                       [](Statement&) {});
}

core::Expected<std::vector<GameRecord>> tournament_games(Connection& db,
                                                         std::string_view tournament_id) {
    return query_games(db, "the games of tournament " + std::string(tournament_id),
                       sql::reads::tournament_games_clause(dialect),
                       [&](Statement& s) { s.bind(1, tournament_id); });
}

core::Expected<std::vector<std::string>> unfinished_game_ids_of(Connection& db,
                                                                std::string_view player_id) {
    std::vector<std::string> out;
    auto status = query(
        db, "the unfinished games of player " + std::string(player_id),
        sql::reads::unfinished_game_ids_of(dialect), [&](Statement& s) { s.bind(1, player_id); },
        [&](const Statement& s) { out.push_back(s.text(0)); });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<StoredEvent>> events(Connection& db, std::string_view game_id,
                                                std::int64_t after_version) {
    std::vector<StoredEvent> out;
    auto status = query(
        db, "the events of game " + std::string(game_id), sql::reads::events(dialect),
        [&](Statement& s) { s.bind(1, game_id).bind(2, after_version); },
        [&](const Statement& s) {
            out.push_back(StoredEvent{s.integer(0), s.text(1)});
        });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<ChatLine>> chat_lines(Connection& db, std::string_view game_id) {
    std::vector<ChatLine> out;
    auto status = query(
        db, "the chat of game " + std::string(game_id), sql::reads::chat_lines(dialect),
        [&](Statement& s) { s.bind(1, game_id); },
        [&](const Statement& s) { out.push_back(sql::chat_line_from_row(game_id, s)); });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<SeekRecord>> seeks(Connection& db) {
    std::vector<SeekRecord> out;
    auto status = query(
        db, "the seeks", sql::reads::seeks(dialect), [](Statement&) {},
        [&](const Statement& s) { out.push_back(sql::seek_from_row(s)); });
    return or_error(status, std::move(out));
}

}  // namespace server::sqlite_reads
