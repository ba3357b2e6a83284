#pragma once
// The account, moderation, rating and game-history reads as queries on one connection (see
// sqlite_reads.h: a failed query returns an error, never "nothing found").
#include <optional>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "server/store/sqlite_db.h"
#include "server/store/store.h"

namespace server::sqlite_account_reads {

core::Expected<std::optional<AccountRecord>> account(sqlite::Connection& db,
                                                     std::string_view player_id);
core::Expected<std::optional<AccountRecord>> account_by_username(sqlite::Connection& db,
                                                                 std::string_view username);
core::Expected<Moderation> moderation(sqlite::Connection& db, std::string_view player_id);
core::Expected<std::vector<std::string>> muted_players(sqlite::Connection& db);
core::Expected<std::vector<RatingRecord>> ratings_of(sqlite::Connection& db,
                                                     std::string_view player_id);
core::Expected<std::vector<GameRating>> game_ratings(sqlite::Connection& db,
                                                     std::string_view game_id);
core::Expected<std::vector<GameRating>> rating_history(sqlite::Connection& db,
                                                       std::string_view player_id);
core::Expected<std::vector<LeaderboardRow>> leaderboard(sqlite::Connection& db,
                                                        std::string_view variant, double max_rd,
                                                        std::int64_t active_since, int limit);
core::Expected<std::vector<GameRecord>> find_games(sqlite::Connection& db, const GameQuery& query);
core::Expected<GameTally> tally(sqlite::Connection& db, std::string_view player_id,
                                std::string_view viewer_id);

}  // namespace server::sqlite_account_reads
