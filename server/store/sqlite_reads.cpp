#include "server/store/sqlite_reads.h"

#include <algorithm>
#include <string>

namespace server::sqlite_reads {

namespace {

using sqlite::Connection;
using sqlite::Statement;

constexpr const char* game_columns =
    "id, variant, rules, start_fen, seed, rounds, private, status, result_json, created_at, "
    "finished_at, time_control, rated, access_key, fence";

core::Expected<std::optional<PlayerRecord>> find_player(Connection& db, std::string_view what,
                                                        const std::string& sql,
                                                        std::string_view key) {
    std::optional<PlayerRecord> found;
    auto status = query(
        db, what, sql, [&](Statement& s) { s.bind(1, key); },
        [&](const Statement& s) {
            found = PlayerRecord{s.text(0), s.text(1), s.text(2), s.integer(3)};
        });
    return or_error(status, std::move(found));
}

GameRecord game_from_row(const Statement& s) {
    GameRecord g;
    g.id = s.text(0);
    g.variant = s.text(1);
    g.rules = s.text(2);
    g.start_fen = s.text(3);
    g.seed = static_cast<std::uint64_t>(s.integer(4));
    g.rounds = static_cast<int>(s.integer(5));
    g.is_private = s.integer(6) != 0;
    g.status = s.text(7);
    g.result_json = s.text(8);
    g.created_at = s.integer(9);
    g.finished_at = s.integer(10);
    g.time_control = s.text(11);
    g.rated = s.integer(12) != 0;
    g.access_key = s.text(13);
    g.fence = s.integer(14);
    return g;
}

// The games a SELECT of game_columns returns, each with its seats. Seats never change after a
// game's creation, so reading them in a second statement sees the same games.
template <class Bind>
core::Expected<std::vector<GameRecord>> query_games(Connection& db, std::string_view what,
                                                    const std::string& sql, Bind&& bind) {
    std::vector<GameRecord> games;
    auto status =
        query(db, what, sql, bind, [&](const Statement& s) { games.push_back(game_from_row(s)); });
    if (!status) {
        return core::make_error(status.error());
    }
    for (auto& g : games) {
        auto seats = query(
            db, "the seats of game " + g.id,
            "SELECT player_id FROM game_seats WHERE game_id = ? ORDER BY seat",
            [&](Statement& s) { s.bind(1, g.id); },
            [&](const Statement& s) { g.seats.push_back(s.text(0)); });
        if (!seats) {
            return core::make_error(seats.error());
        }
    }
    return games;
}

}  // namespace

core::Expected<std::optional<PlayerRecord>> player(Connection& db, std::string_view id) {
    return find_player(db, "player " + std::string(id),
                       "SELECT id, name, token_hash, created_at FROM players WHERE id = ?", id);
}

core::Expected<std::optional<PlayerRecord>> player_by_token_hash(Connection& db,
                                                                 std::string_view token_hash) {
    return find_player(db, "the player of a session token",
                       "SELECT p.id, p.name, p.token_hash, p.created_at FROM sessions s "
                       "JOIN players p ON p.id = s.player_id WHERE s.token_hash = ?",
                       token_hash);
}

core::Expected<std::optional<GameRecord>> game(Connection& db, std::string_view id) {
    auto games = query_games(db, "game " + std::string(id),
                             std::string("SELECT ") + game_columns + " FROM games WHERE id = ?",
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
    return query_games(db, "the unfinished games",
                       std::string("SELECT ") + game_columns +
                           " FROM games WHERE status = 'active' ORDER BY created_at, rowid",
                       [](Statement&) {});
}

core::Expected<std::vector<std::string>> unfinished_game_ids_of(Connection& db,
                                                                std::string_view player_id) {
    std::vector<std::string> out;
    auto status = query(
        db, "the unfinished games of player " + std::string(player_id),
        "SELECT g.id FROM game_seats s JOIN games g ON g.id = s.game_id "
        "WHERE s.player_id = ? AND g.status = 'active' ORDER BY g.created_at, g.rowid",
        [&](Statement& s) { s.bind(1, player_id); },
        [&](const Statement& s) { out.push_back(s.text(0)); });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<StoredEvent>> events(Connection& db, std::string_view game_id,
                                                std::int64_t after_version) {
    std::vector<StoredEvent> out;
    auto status = query(
        db, "the events of game " + std::string(game_id),
        "SELECT version, json FROM events WHERE game_id = ? AND version > ? ORDER BY version",
        [&](Statement& s) { s.bind(1, game_id).bind(2, after_version); },
        [&](const Statement& s) {
            out.push_back(StoredEvent{s.integer(0), s.text(1)});
        });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<ChatLine>> chat_lines(Connection& db, std::string_view game_id) {
    std::vector<ChatLine> out;
    auto status = query(
        db, "the chat of game " + std::string(game_id),
        "SELECT channel, player_id, name, seat, text, at FROM chat_lines WHERE game_id = ? "
        "ORDER BY n",
        [&](Statement& s) { s.bind(1, game_id); },
        [&](const Statement& s) {
            out.push_back(ChatLine{std::string(game_id), s.text(0), s.text(1), s.text(2), s.text(3),
                                   s.text(4), s.text(5)});
        });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<GameRecord>> finished_games_of(Connection& db,
                                                          std::string_view player_id, int offset,
                                                          int limit) {
    return query_games(db, "the finished games of " + std::string(player_id),
                       std::string("SELECT ") + game_columns +
                           " FROM games WHERE status = 'finished' AND id IN "
                           "(SELECT game_id FROM game_seats WHERE player_id = ?) "
                           "ORDER BY finished_at DESC, rowid DESC LIMIT ? OFFSET ?",
                       [&](Statement& s) {
                           s.bind(1, player_id).bind(2, std::int64_t{std::max(limit, 0)});
                           s.bind(3, std::int64_t{std::max(offset, 0)});
                       });
}

core::Expected<std::vector<SeekRecord>> seeks(Connection& db) {
    std::vector<SeekRecord> out;
    auto status = query(
        db, "the seeks", "SELECT id, json FROM seeks ORDER BY rowid", [](Statement&) {},
        [&](const Statement& s) {
            out.push_back(SeekRecord{s.text(0), s.text(1)});
        });
    return or_error(status, std::move(out));
}

}  // namespace server::sqlite_reads
