#pragma once
// The text of every read both SQL stores run (sql_text.h): the same statement, in the dialect
// asked for. sqlite_reads.cpp, sqlite_account_reads.cpp, sqlite_analyses.cpp, sqlite_runs.cpp and
// postgres_reads.cpp, postgres_account_reads.cpp run them; sql_rows.h decodes their rows.
#include <string>
#include <string_view>

#include "server/store/sql_text.h"

namespace server::sql::reads {

// players: id, name, token_hash, created_at (player_from_row), by ?1 = the id or a session's
// token hash.
std::string player(Dialect d);
std::string player_by_token_hash(Dialect d);

// games: the game_column_count game columns (game_from_row) with the clause `where` (a WHERE, an
// ORDER BY) appended. On PostgreSQL one more column holds the seats, joined by the unit separator
// in seat order; SQLite (3.40 cannot order an aggregate) reads them with seats_of_game.
inline constexpr int game_column_count = 17;
std::string games(Dialect d, std::string_view where);
// The clauses for games(): the game ?1; the unfinished games in creation order.
inline constexpr std::string_view game_by_id = "WHERE id = ?1";
std::string unfinished_games_clause(Dialect d);
// player_id of the game ?1's seats, in seat order.
std::string seats_of_game(Dialect d);
// id of the unfinished games player ?1 sits in, in creation order.
std::string unfinished_game_ids_of(Dialect d);

// version, json of the events of game ?1 after version ?2.
std::string events(Dialect d);
// channel, player_id, name, seat, text, at of game ?1's chat (chat_line_from_row).
std::string chat_lines(Dialect d);
// id, json, node, run (seek_from_row) of every seek, in insertion order.
std::string seeks(Dialect d);
// started_at, alive_at of every run.
std::string server_runs(Dialect d);
// game_id, status, json, updated_at, node, run, positions_done, positions_total and the claiming
// run's alive_at (0 when unknown) (analysis_from_row) of game ?1; of every queued analysis.
std::string analysis(Dialect d);
std::string queued_analyses(Dialect d);

// accounts: player_id, username, password_hash, admin, created_at (account_from_row) of player
// ?1; of username key ?1.
std::string account(Dialect d);
std::string account_by_username_key(Dialect d);
// muted, closed of player ?1; id of every muted player.
std::string moderation(Dialect d);
std::string muted_players(Dialect d);
// variant, rating, rd, volatility, games, last_played (rating_from_row) of player ?1, every
// variant; of player ?1 in variant ?2.
std::string ratings_of(Dialect d);
std::string rating_in(Dialect d);
// game_ratings rows (game_rating_from_row): of game ?1 by seat; of player ?1 by time.
std::string game_ratings(Dialect d);
std::string rating_history(Dialect d);
// player_id, name, rating, rd, volatility, games, last_played of variant ?1's best players with
// rd <= ?2, played since ?3, not closed; at most ?4.
std::string leaderboard(Dialect d);
// id of the finished games of player ?1 that viewer ?2 may see, of variant ?3 ('' any), rated ?4
// (-1 any), with `result` "win", "loss", "draw" for ?1 (else any), newest first: ?5 of them after
// the first ?6.
std::string find_games(Dialect d, std::string_view result);
// The count of those games of ?1 that viewer ?2 may see, and of those won, drawn, lost.
std::string tally(Dialect d);

}  // namespace server::sql::reads
