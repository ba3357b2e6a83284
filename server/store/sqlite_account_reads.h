#pragma once
// The account, moderation, rating and game-history reads as queries on one connection (see
// sqlite_reads.h: a failed query is logged and reads as "nothing found").
#include <optional>
#include <string_view>
#include <vector>

#include "server/store/sqlite_db.h"
#include "server/store/store.h"

namespace server::sqlite_account_reads {

std::optional<AccountRecord> account(sqlite::Connection& db, std::string_view player_id);
std::optional<AccountRecord> account_by_username(sqlite::Connection& db, std::string_view username);
Moderation moderation(sqlite::Connection& db, std::string_view player_id);
std::vector<std::string> muted_players(sqlite::Connection& db);
std::vector<RatingRecord> ratings_of(sqlite::Connection& db, std::string_view player_id);
std::vector<GameRating> game_ratings(sqlite::Connection& db, std::string_view game_id);
std::vector<GameRating> rating_history(sqlite::Connection& db, std::string_view player_id);
std::vector<LeaderboardRow> leaderboard(sqlite::Connection& db, std::string_view variant,
                                        double max_rd, std::int64_t active_since, int limit);
std::vector<GameRecord> find_games(sqlite::Connection& db, const GameQuery& query);
GameTally tally(sqlite::Connection& db, std::string_view player_id, std::string_view viewer_id);

}  // namespace server::sqlite_account_reads
