#pragma once
// The store's reads as queries on one connection: a read connection from the pool, or (for a
// ":memory:" database) the writer's connection while the writer is idle. A query that fails is
// logged and reads as "nothing found".
#include <optional>
#include <string_view>
#include <vector>

#include "server/store/sqlite_db.h"
#include "server/store/store.h"

namespace server::sqlite_reads {

std::optional<PlayerRecord> player(sqlite::Connection& db, std::string_view id);
std::optional<PlayerRecord> player_by_token_hash(sqlite::Connection& db,
                                                 std::string_view token_hash);
std::optional<GameRecord> game(sqlite::Connection& db, std::string_view id);
std::vector<GameRecord> unfinished_games(sqlite::Connection& db);
std::vector<StoredEvent> events(sqlite::Connection& db, std::string_view game_id,
                                std::int64_t after_version);
std::vector<GameRecord> finished_games_of(sqlite::Connection& db, std::string_view player_id,
                                          int offset, int limit);
std::vector<SeekRecord> seeks(sqlite::Connection& db);

}  // namespace server::sqlite_reads
