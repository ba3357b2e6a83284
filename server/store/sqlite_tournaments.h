#pragma once
// Tournaments (tournament_records.h; issue 43) in SQLite: the writer thread's CreateTournament,
// AppendTournamentEvents and SetTournamentStatus, run inside the batch's savepoint, and the reads.
// A read that fails is an error naming what was read.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "server/store/sqlite_db.h"
#include "server/store/store.h"

namespace server::sqlite_tournaments {

// Inserts the tournament; an error naming it if its id exists.
core::Status create_tournament(sqlite::Connection& db, const CreateTournament& write);
// Appends the events; an error unless there is such a tournament and the first version is its
// last stored version + 1.
core::Status append_tournament_events(sqlite::Connection& db, const AppendTournamentEvents& write);
// Sets status and players (and winner_json unless empty); an error if there is no such tournament.
core::Status set_tournament_status(sqlite::Connection& db, const SetTournamentStatus& write);

core::Expected<std::optional<TournamentRecord>> tournament(sqlite::Connection& db,
                                                           std::string_view id);
core::Expected<std::vector<TournamentRecord>> tournaments(sqlite::Connection& db,
                                                          const TournamentQuery& query);
core::Expected<std::vector<TournamentRecord>> unfinished_tournaments(sqlite::Connection& db);
core::Expected<std::vector<StoredTournamentEvent>> tournament_events(sqlite::Connection& db,
                                                                     std::string_view id,
                                                                     std::int64_t after_version);
core::Expected<int> tournaments_created_since(sqlite::Connection& db, std::string_view player_id,
                                              std::int64_t since_ms);

}  // namespace server::sqlite_tournaments
