#include "server/store/sqlite_reads.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <string>

namespace server::sqlite_reads {

namespace {

using sqlite::Connection;
using sqlite::Statement;

constexpr const char* game_columns =
    "id, variant, rules, start_fen, seed, rounds, private, status, result_json, created_at, "
    "finished_at, time_control, rated";

template <class T>
T log_failure(T empty, const std::string& message) {
    spdlog::error("sqlite store: {}", message);
    return empty;
}

std::optional<PlayerRecord> find_player(Connection& db, const std::string& sql,
                                        std::string_view key) {
    auto stmt = db.prepare(sql);
    if (!stmt) {
        return log_failure(std::optional<PlayerRecord>{}, stmt.error());
    }
    (*stmt)->bind(1, key);
    if (!(*stmt)->step()) {
        if (auto status = (*stmt)->status(); !status) {
            return log_failure(std::optional<PlayerRecord>{}, status.error());
        }
        return std::nullopt;
    }
    const Statement& s = **stmt;
    return PlayerRecord{s.text(0), s.text(1), s.text(2), s.integer(3)};
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
    return g;
}

// The games a SELECT of game_columns returns, each with its seats. Seats never change after a
// game's creation, so reading them in a second statement sees the same games.
template <class Bind>
std::vector<GameRecord> query_games(Connection& db, const std::string& sql, Bind&& bind) {
    std::vector<GameRecord> games;
    {
        auto stmt = db.prepare(sql);
        if (!stmt) {
            return log_failure(std::move(games), stmt.error());
        }
        bind(**stmt);
        while ((*stmt)->step()) {
            games.push_back(game_from_row(**stmt));
        }
        if (auto status = (*stmt)->status(); !status) {
            return log_failure(std::vector<GameRecord>{}, status.error());
        }
    }
    for (auto& g : games) {
        auto seats = db.prepare("SELECT player_id FROM game_seats WHERE game_id = ? ORDER BY seat");
        if (!seats) {
            return log_failure(std::vector<GameRecord>{}, seats.error());
        }
        (*seats)->bind(1, g.id);
        while ((*seats)->step()) {
            g.seats.push_back((*seats)->text(0));
        }
        if (auto status = (*seats)->status(); !status) {
            return log_failure(std::vector<GameRecord>{}, status.error());
        }
    }
    return games;
}

}  // namespace

std::optional<PlayerRecord> player(Connection& db, std::string_view id) {
    return find_player(db, "SELECT id, name, token_hash, created_at FROM players WHERE id = ?", id);
}

std::optional<PlayerRecord> player_by_token_hash(Connection& db, std::string_view token_hash) {
    return find_player(db,
                       "SELECT p.id, p.name, p.token_hash, p.created_at FROM sessions s "
                       "JOIN players p ON p.id = s.player_id WHERE s.token_hash = ?",
                       token_hash);
}

std::optional<GameRecord> game(Connection& db, std::string_view id) {
    auto games = query_games(db, std::string("SELECT ") + game_columns + " FROM games WHERE id = ?",
                             [&](Statement& s) { s.bind(1, id); });
    if (games.empty()) {
        return std::nullopt;
    }
    return std::move(games.front());
}

std::vector<GameRecord> unfinished_games(Connection& db) {
    return query_games(db,
                       std::string("SELECT ") + game_columns +
                           " FROM games WHERE status = 'active' ORDER BY created_at, rowid",
                       [](Statement&) {});
}

std::vector<StoredEvent> events(Connection& db, std::string_view game_id,
                                std::int64_t after_version) {
    std::vector<StoredEvent> out;
    auto stmt = db.prepare(
        "SELECT version, json FROM events WHERE game_id = ? AND version > ? ORDER BY version");
    if (!stmt) {
        return log_failure(std::move(out), stmt.error());
    }
    (*stmt)->bind(1, game_id).bind(2, after_version);
    while ((*stmt)->step()) {
        out.push_back(StoredEvent{(*stmt)->integer(0), (*stmt)->text(1)});
    }
    if (auto status = (*stmt)->status(); !status) {
        return log_failure(std::vector<StoredEvent>{}, status.error());
    }
    return out;
}

std::vector<GameRecord> finished_games_of(Connection& db, std::string_view player_id, int offset,
                                          int limit) {
    return query_games(db,
                       std::string("SELECT ") + game_columns +
                           " FROM games WHERE status = 'finished' AND id IN "
                           "(SELECT game_id FROM game_seats WHERE player_id = ?) "
                           "ORDER BY finished_at DESC, rowid DESC LIMIT ? OFFSET ?",
                       [&](Statement& s) {
                           s.bind(1, player_id).bind(2, std::int64_t{std::max(limit, 0)});
                           s.bind(3, std::int64_t{std::max(offset, 0)});
                       });
}

std::vector<SeekRecord> seeks(Connection& db) {
    std::vector<SeekRecord> out;
    auto stmt = db.prepare("SELECT id, json FROM seeks ORDER BY rowid");
    if (!stmt) {
        return log_failure(std::move(out), stmt.error());
    }
    while ((*stmt)->step()) {
        out.push_back(SeekRecord{(*stmt)->text(0), (*stmt)->text(1)});
    }
    if (auto status = (*stmt)->status(); !status) {
        return log_failure(std::vector<SeekRecord>{}, status.error());
    }
    return out;
}

}  // namespace server::sqlite_reads
