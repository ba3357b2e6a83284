#include "server/store/postgres_reads.h"

#include <algorithm>
#include <string>

namespace server::pg_reads {

namespace {

using pg::Connection;
using pg::Params;
using pg::Result;

constexpr const char* game_columns =
    "id, variant, rules, start_fen, seed, rounds, private, status, result_json, created_at, "
    "finished_at, time_control, rated, access_key, fence";

core::Expected<std::optional<PlayerRecord>> find_player(Connection& db, std::string_view what,
                                                        const std::string& sql,
                                                        std::string_view key) {
    std::optional<PlayerRecord> found;
    auto status = query(db, what, sql, Params(key), [&](const Result& r, int i) {
        found = PlayerRecord{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.integer(i, 3)};
    });
    return or_error(status, std::move(found));
}

GameRecord game_from_row(const Result& r, int i) {
    GameRecord g;
    g.id = r.text(i, 0);
    g.variant = r.text(i, 1);
    g.rules = r.text(i, 2);
    g.start_fen = r.text(i, 3);
    g.seed = static_cast<std::uint64_t>(r.integer(i, 4));
    g.rounds = static_cast<int>(r.integer(i, 5));
    g.is_private = r.integer(i, 6) != 0;
    g.status = r.text(i, 7);
    g.result_json = r.text(i, 8);
    g.created_at = r.integer(i, 9);
    g.finished_at = r.integer(i, 10);
    g.time_control = r.text(i, 11);
    g.rated = r.integer(i, 12) != 0;
    g.access_key = r.text(i, 13);
    g.fence = r.integer(i, 14);
    return g;
}

// The games a SELECT of game_columns returns, each with its seats, read in the same statement
// (joined by the unit separator, which no player id holds).
core::Expected<std::vector<GameRecord>> query_games(Connection& db, std::string_view what,
                                                    const std::string& where,
                                                    const Params& params) {
    std::vector<GameRecord> games;
    auto status =
        query(db, what,
              std::string("SELECT ") + game_columns +
                  ", (SELECT string_agg(player_id, chr(31) ORDER BY seat) FROM game_seats "
                  "WHERE game_id = games.id) FROM games " +
                  where,
              params, [&](const Result& r, int i) {
                  auto g = game_from_row(r, i);
                  const auto seats = r.text(i, 15);
                  for (std::size_t at = 0; at < seats.size();) {
                      auto end = seats.find('\x1f', at);
                      end = end == std::string::npos ? seats.size() : end;
                      g.seats.push_back(seats.substr(at, end - at));
                      at = end + 1;
                  }
                  games.push_back(std::move(g));
              });
    return or_error(status, std::move(games));
}

AnalysisRecord analysis_from_row(const Result& r, int i) {
    return AnalysisRecord{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.integer(i, 3)};
}

}  // namespace

core::Expected<std::optional<PlayerRecord>> player(Connection& db, std::string_view id) {
    return find_player(db, "player " + std::string(id),
                       "SELECT id, name, token_hash, created_at FROM players WHERE id = $1", id);
}

core::Expected<std::optional<PlayerRecord>> player_by_token_hash(Connection& db,
                                                                 std::string_view token_hash) {
    return find_player(db, "the player of a session token",
                       "SELECT p.id, p.name, p.token_hash, p.created_at FROM sessions s "
                       "JOIN players p ON p.id = s.player_id WHERE s.token_hash = $1",
                       token_hash);
}

core::Expected<std::optional<GameRecord>> game(Connection& db, std::string_view id) {
    auto games = query_games(db, "game " + std::string(id), "WHERE id = $1", Params(id));
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
                       "WHERE status = 'active' ORDER BY created_at, seq", Params());
}

core::Expected<std::vector<std::string>> unfinished_game_ids_of(Connection& db,
                                                                std::string_view player_id) {
    std::vector<std::string> out;
    auto status =
        query(db, "the unfinished games of player " + std::string(player_id),
              "SELECT g.id FROM game_seats s JOIN games g ON g.id = s.game_id "
              "WHERE s.player_id = $1 AND g.status = 'active' "
              "ORDER BY g.created_at, g.seq",
              Params(player_id), [&](const Result& r, int i) { out.push_back(r.text(i, 0)); });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<StoredEvent>> events(Connection& db, std::string_view game_id,
                                                std::int64_t after_version) {
    std::vector<StoredEvent> out;
    auto status = query(
        db, "the events of game " + std::string(game_id),
        "SELECT version, json FROM events WHERE game_id = $1 AND version > $2 ORDER BY version",
        Params(game_id, after_version), [&](const Result& r, int i) {
            out.push_back(StoredEvent{r.integer(i, 0), r.text(i, 1)});
        });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<ChatLine>> chat_lines(Connection& db, std::string_view game_id) {
    std::vector<ChatLine> out;
    auto status =
        query(db, "the chat of game " + std::string(game_id),
              "SELECT channel, player_id, name, seat, text, at FROM chat_lines "
              "WHERE game_id = $1 ORDER BY n",
              Params(game_id), [&](const Result& r, int i) {
                  out.push_back(ChatLine{std::string(game_id), r.text(i, 0), r.text(i, 1),
                                         r.text(i, 2), r.text(i, 3), r.text(i, 4), r.text(i, 5)});
              });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<GameRecord>> finished_games_of(Connection& db,
                                                          std::string_view player_id, int offset,
                                                          int limit) {
    return query_games(db, "the finished games of " + std::string(player_id),
                       "WHERE status = 'finished' AND id IN "
                       "(SELECT game_id FROM game_seats WHERE player_id = $1) "
                       "ORDER BY finished_at DESC, seq DESC LIMIT $2 OFFSET $3",
                       Params(player_id, std::max(limit, 0), std::max(offset, 0)));
}

core::Expected<std::vector<SeekRecord>> seeks(Connection& db) {
    std::vector<SeekRecord> out;
    auto status = query(db, "the seeks", "SELECT id, json FROM seeks ORDER BY seq", Params(),
                        [&](const Result& r, int i) {
                            out.push_back(SeekRecord{r.text(i, 0), r.text(i, 1)});
                        });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<ServerRun>> server_runs(Connection& db) {
    std::vector<ServerRun> runs;
    auto status = query(db, "the server's runs",
                        "SELECT started_at, alive_at FROM server_runs ORDER BY started_at",
                        Params(), [&](const Result& r, int i) {
                            runs.push_back({r.integer(i, 0), r.integer(i, 1)});
                        });
    return or_error(status, std::move(runs));
}

core::Expected<std::optional<AnalysisRecord>> analysis(Connection& db, std::string_view game_id) {
    std::optional<AnalysisRecord> found;
    auto status =
        query(db, "the analysis of game " + std::string(game_id),
              "SELECT game_id, status, json, updated_at FROM analyses WHERE game_id = $1",
              Params(game_id), [&](const Result& r, int i) { found = analysis_from_row(r, i); });
    return or_error(status, std::move(found));
}

core::Expected<std::vector<AnalysisRecord>> queued_analyses(Connection& db) {
    std::vector<AnalysisRecord> found;
    auto status =
        query(db, "the queued analyses",
              "SELECT game_id, status, json, updated_at FROM analyses "
              "WHERE status = 'queued' ORDER BY updated_at, seq",
              Params(), [&](const Result& r, int i) { found.push_back(analysis_from_row(r, i)); });
    return or_error(status, std::move(found));
}

}  // namespace server::pg_reads
