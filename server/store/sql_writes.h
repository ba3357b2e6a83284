#pragma once
// The text of every write both SQL stores run inside a batch's savepoint (sql_text.h): the same
// statement, in the dialect asked for. sqlite_writer.cpp, sqlite_account_writes.cpp,
// sqlite_analyses.cpp, sqlite_runs.cpp, sqlite_fences.cpp and postgres_writes.cpp,
// postgres_account_writes.cpp, postgres_fences.cpp run them. How each store tells a failure apart
// (SQLite's extended codes, PostgreSQL's SQLSTATE) stays with the store.
#include <string>

#include "server/store/sql_text.h"

namespace server::sql::writes {

// Players: (?1 id, ?2 name, ?3 token_hash, ?4 created_at); the name ?1 of player ?2.
std::string insert_player(Dialect d);
std::string rename_player(Dialect d);

// A game's 17 columns, in the order of reads::games, as ?1…?17; seat ?2 of game ?1 is player ?3.
std::string create_game(Dialect d);
std::string seat_player(Dialect d);
// 1 if game ?1 exists (no row otherwise).
std::string game_exists(Dialect d);
// Whether game ?1 exists (1 or 0) and its last event version (0 for none), in one row.
std::string event_log_state(Dialect d);
// Event (?1 game, ?2 version, ?3 json).
std::string append_event(Dialect d);
// Game ?3 finished with result ?1 at ?2.
std::string finish_game(Dialect d);

// Seek (?1 id, ?2 json), replacing the one with that id; seek ?1 gone.
std::string save_seek(Dialect d);
std::string delete_seek(Dialect d);
// Every seek of node ?1 gone.
std::string delete_node_seeks(Dialect d);

// Chat line (?1 game, ?2 channel, ?3 player_id, ?4 name, ?5 seat, ?6 text, ?7 at) numbered after
// the game's last; the lines of game ?1's channel ?2 but the newest ?3, deleted.
std::string add_chat_line(Dialect d);
std::string trim_chat_lines(Dialect d);

// Run (?1 started_at, ?2 alive_at); a run already there keeps the later alive_at.
std::string record_run(Dialect d);
// Analysis (?1 game_id, ?2 status, ?3 json, ?4 updated_at, ?5 node, ?6 run, ?7 positions_done,
// ?8 positions_total), replacing the game's; the same as a claim (SaveAnalysis, "queued"), written
// only over a failed analysis or a queued one of run ?9.
std::string save_analysis(Dialect d);
std::string claim_analysis(Dialect d);

// Account (?1 player_id, ?2 username, ?3 username_key, ?4 password_hash, ?5 admin, ?6 created_at).
std::string create_account(Dialect d);
// The password hash ?1, the admin flag ?1 of player ?2's account.
std::string set_password(Dialect d);
std::string set_admin(Dialect d);
// Player ?3's muted ?1 and closed ?2, each kept when NULL.
std::string set_moderation(Dialect d);
// Session (?1 token_hash, ?2 player_id, ?3 created_at); session ?1 gone; player ?1's sessions but
// ?2 gone.
std::string add_session(Dialect d);
std::string revoke_session(Dialect d);
std::string revoke_sessions(Dialect d);
// Player ?1's rating in variant ?2 set to (?3 rating, ?4 rd, ?5 volatility) at ?6, one game more.
std::string save_rating(Dialect d);
// A game_ratings row, its 11 columns in the order of reads::game_ratings.
std::string add_game_rating(Dialect d);

// Game ?1's fence raised to ?2 (no row changed when it is higher, or no such game).
std::string claim_game(Dialect d);
// Game ?1's fence; the same, the row locked against a concurrent claim until the transaction ends.
std::string fence_of(Dialect d);
std::string checked_fence(Dialect d);

}  // namespace server::sql::writes
