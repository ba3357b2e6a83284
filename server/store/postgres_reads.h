#pragma once
// The store's reads as queries on one PostgreSQL connection (a read connection lent by the store's
// pool). A query that fails returns an error naming what was read and the server's message; an
// empty result means the rows are not there.
#include <optional>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "server/store/postgres_db.h"
#include "server/store/sql_text.h"
#include "server/store/store.h"

namespace server::pg_reads {

// The dialect of the shared SQL texts (sql_reads.h, sql_writes.h) these run.
inline constexpr auto dialect = sql::Dialect::postgres;

// postgres_reads.cpp: players, games, events, chat, seeks, runs, analyses.
core::Expected<std::optional<PlayerRecord>> player(pg::Connection& db, std::string_view id);
core::Expected<std::optional<PlayerRecord>> player_by_token_hash(pg::Connection& db,
                                                                 std::string_view token_hash);
core::Expected<std::optional<GameRecord>> game(pg::Connection& db, std::string_view id);
core::Expected<std::vector<GameRecord>> unfinished_games(pg::Connection& db);
core::Expected<std::vector<std::string>> unfinished_game_ids_of(pg::Connection& db,
                                                                std::string_view player_id);
core::Expected<std::vector<GameRecord>> tournament_games(pg::Connection& db,
                                                         std::string_view tournament_id);
core::Expected<std::vector<StoredEvent>> events(pg::Connection& db, std::string_view game_id,
                                                std::int64_t after_version);
core::Expected<std::vector<ChatLine>> chat_lines(pg::Connection& db, std::string_view game_id);
core::Expected<std::vector<SeekRecord>> seeks(pg::Connection& db);
core::Expected<std::vector<ServerRun>> server_runs(pg::Connection& db);
core::Expected<std::optional<AnalysisRecord>> analysis(pg::Connection& db,
                                                       std::string_view game_id);
core::Expected<std::vector<AnalysisRecord>> queued_analyses(pg::Connection& db);

// postgres_tournaments.cpp: tournaments and their events (tournament_records.h).
core::Expected<std::optional<TournamentRecord>> tournament(pg::Connection& db, std::string_view id);
core::Expected<std::vector<TournamentRecord>> tournaments(pg::Connection& db,
                                                          const TournamentQuery& query);
core::Expected<std::vector<TournamentRecord>> unfinished_tournaments(pg::Connection& db);
core::Expected<std::vector<StoredTournamentEvent>> tournament_events(pg::Connection& db,
                                                                     std::string_view id,
                                                                     std::int64_t after_version);
core::Expected<int> tournaments_created_since(pg::Connection& db, std::string_view player_id,
                                              std::int64_t since_ms);

// postgres_account_reads.cpp: accounts, moderation, ratings, a player's games.
core::Expected<std::optional<AccountRecord>> account(pg::Connection& db,
                                                     std::string_view player_id);
core::Expected<std::optional<AccountRecord>> account_by_username(pg::Connection& db,
                                                                 std::string_view username);
core::Expected<Moderation> moderation(pg::Connection& db, std::string_view player_id);
core::Expected<std::vector<std::string>> muted_players(pg::Connection& db);
core::Expected<std::vector<RatingRecord>> ratings_of(pg::Connection& db,
                                                     std::string_view player_id);
core::Expected<std::vector<GameRating>> game_ratings(pg::Connection& db, std::string_view game_id);
core::Expected<std::vector<GameRating>> rating_history(pg::Connection& db,
                                                       std::string_view player_id);
core::Expected<std::vector<LeaderboardRow>> leaderboard(pg::Connection& db,
                                                        std::string_view variant, double max_rd,
                                                        std::int64_t active_since, int limit);
core::Expected<std::vector<GameRecord>> find_games(pg::Connection& db, const GameQuery& query);
core::Expected<GameTally> tally(pg::Connection& db, std::string_view player_id,
                                std::string_view viewer_id);

// Runs `sql` with `params` and lets `row` read each row (a pg::Row); an
// error saying "reading <what>: <the server's message>" when the query failed.
template <class Row>
core::Status query(pg::Connection& db, std::string_view what, const std::string& sql,
                   const pg::Params& params, Row&& row) {
    auto result = db.query(sql, params);
    if (!result) {
        return core::make_error("reading " + std::string(what) + ": " + result.error());
    }
    for (int i = 0; i < result->rows(); ++i) {
        row(pg::Row(*result, i));
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

}  // namespace server::pg_reads
