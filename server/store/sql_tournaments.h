#pragma once
// The text of the tournaments' writes and reads (tournament_records.h) both SQL stores run
// (sql_text.h): the same statement, in the dialect asked for. sqlite_tournaments.cpp and
// postgres_tournaments.cpp run them; sql_rows.h decodes their rows (tournament_from_row).
#include <string>
#include <string_view>

#include "server/store/sql_text.h"

namespace server::sql::writes {

// A tournament's 13 columns, in the order of reads::tournament, as ?1…?13.
std::string create_tournament(Dialect d);
// Whether tournament ?1 exists (1 or 0) and its last event version (0 for none), in one row.
std::string tournament_log_state(Dialect d);
// Tournament event (?1 tournament, ?2 version, ?3 json).
std::string append_tournament_event(Dialect d);
// Tournament ?1's status ?2 and players ?3, and its winner_json ?4 unless that is ''.
std::string set_tournament_status(Dialect d);

}  // namespace server::sql::writes

namespace server::sql::reads {

// tournaments: id, kind, name, variant, created_by, config_json, status, starts_at, ends_at,
// created_at, password_hash, players, winner_json (tournament_from_row): of tournament ?1; of
// status ?1 and kind ?2 ('' any) in `status`'s order (tournament_records.h), at most ?3; of the
// tournaments created or started, oldest created first.
std::string tournament(Dialect d);
std::string tournaments(Dialect d, std::string_view status);
std::string unfinished_tournaments(Dialect d);
// version, json of the events of tournament ?1 after version ?2.
std::string tournament_events(Dialect d);
// The count of the tournaments player ?1 created at or after ?2.
std::string tournaments_created_since(Dialect d);
// The clause for games() that selects tournament ?1's games, oldest first.
std::string tournament_games_clause(Dialect d);

}  // namespace server::sql::reads
