#include "server/store/sql_writes.h"

namespace server::sql::writes {

std::string insert_player(Dialect d) {
    return in_dialect(
        d, "INSERT INTO players (id, name, token_hash, created_at) VALUES (?1, ?2, ?3, ?4)");
}

std::string rename_player(Dialect d) {
    return in_dialect(d, "UPDATE players SET name = ?1 WHERE id = ?2");
}

std::string create_game(Dialect d) {
    return in_dialect(
        d,
        "INSERT INTO games (id, variant, rules, start_fen, seed, rounds, private, status, "
        "result_json, created_at, finished_at, time_control, rated, access_key, fence, "
        "tournament_id, berserkable) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)");
}

std::string seat_player(Dialect d) {
    return in_dialect(d, "INSERT INTO game_seats (game_id, seat, player_id) VALUES (?1, ?2, ?3)");
}

std::string game_exists(Dialect d) {
    return in_dialect(d, "SELECT 1 FROM games WHERE id = ?1");
}

std::string event_log_state(Dialect d) {
    return in_dialect(d,
                      "SELECT CASE WHEN EXISTS (SELECT 1 FROM games WHERE id = ?1) THEN 1 "
                      "ELSE 0 END, "
                      "(SELECT COALESCE(MAX(version), 0) FROM events WHERE game_id = ?1)");
}

std::string append_event(Dialect d) {
    return in_dialect(d, "INSERT INTO events (game_id, version, json) VALUES (?1, ?2, ?3)");
}

std::string finish_game(Dialect d) {
    return in_dialect(d,
                      "UPDATE games SET status = 'finished', result_json = ?1, "
                      "finished_at = ?2 WHERE id = ?3");
}

std::string save_seek(Dialect d) {
    return in_dialect(d,
                      "INSERT INTO seeks (id, json, node, run) VALUES (?1, ?2, ?3, ?4) "
                      "ON CONFLICT (id) DO UPDATE SET json = excluded.json, node = excluded.node, "
                      "run = excluded.run");
}

std::string delete_seek(Dialect d) {
    return in_dialect(d, "DELETE FROM seeks WHERE id = ?1");
}

std::string delete_node_seeks(Dialect d) {
    return in_dialect(d, "DELETE FROM seeks WHERE node = ?1");
}

std::string add_chat_line(Dialect d) {
    return in_dialect(
        d,
        "INSERT INTO chat_lines (game_id, n, channel, player_id, name, seat, text, at) "
        "SELECT ?1, COALESCE(MAX(n), 0) + 1, ?2, ?3, ?4, ?5, ?6, ?7 FROM chat_lines "
        "WHERE game_id = ?1");
}

std::string trim_chat_lines(Dialect d) {
    return in_dialect(d,
                      "DELETE FROM chat_lines WHERE game_id = ?1 AND channel = ?2 AND n <= "
                      "(SELECT n FROM chat_lines WHERE game_id = ?1 AND channel = ?2 "
                      "ORDER BY n DESC LIMIT 1 OFFSET ?3)");
}

std::string record_run(Dialect d) {
    return in_dialect(d,
                      "INSERT INTO server_runs (started_at, alive_at) VALUES (?1, ?2) "
                      "ON CONFLICT (started_at) DO UPDATE SET alive_at = " +
                          std::string(greatest(d)) + "(server_runs.alive_at, excluded.alive_at)");
}

namespace {

constexpr std::string_view analysis_upsert =
    "INSERT INTO analyses (game_id, status, json, updated_at, node, run, positions_done, "
    "positions_total) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
    "ON CONFLICT (game_id) DO UPDATE SET status = excluded.status, json = excluded.json, "
    "updated_at = excluded.updated_at, node = excluded.node, run = excluded.run, "
    "positions_done = excluded.positions_done, positions_total = excluded.positions_total";

}  // namespace

std::string save_analysis(Dialect d) {
    return in_dialect(d, analysis_upsert);
}

std::string claim_analysis(Dialect d) {
    // Appended in place (GCC 12 warns falsely, -Warray-bounds, on string&& + literal here).
    std::string text(analysis_upsert);
    text.append(
        " WHERE analyses.status = 'failed' OR "
        "(analyses.status = 'queued' AND analyses.run = ?9)");
    return in_dialect(d, text);
}

std::string create_account(Dialect d) {
    return in_dialect(d,
                      "INSERT INTO accounts (player_id, username, username_key, password_hash, "
                      "admin, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
}

std::string set_password(Dialect d) {
    return in_dialect(d, "UPDATE accounts SET password_hash = ?1 WHERE player_id = ?2");
}

std::string set_admin(Dialect d) {
    return in_dialect(d, "UPDATE accounts SET admin = ?1 WHERE player_id = ?2");
}

std::string set_moderation(Dialect d) {
    return in_dialect(d,
                      "UPDATE players SET muted = COALESCE(CAST(?1 AS SMALLINT), muted), "
                      "closed = COALESCE(CAST(?2 AS SMALLINT), closed) WHERE id = ?3");
}

std::string add_session(Dialect d) {
    return in_dialect(
        d, "INSERT INTO sessions (token_hash, player_id, created_at) VALUES (?1, ?2, ?3)");
}

std::string revoke_session(Dialect d) {
    return in_dialect(d, "DELETE FROM sessions WHERE token_hash = ?1");
}

std::string revoke_sessions(Dialect d) {
    return in_dialect(d, "DELETE FROM sessions WHERE player_id = ?1 AND token_hash <> ?2");
}

std::string save_rating(Dialect d) {
    return in_dialect(
        d,
        "INSERT INTO ratings (player_id, variant, rating, rd, volatility, games, last_played) "
        "VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6) ON CONFLICT (player_id, variant) DO UPDATE SET "
        "rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility, "
        "games = ratings.games + 1, last_played = excluded.last_played");
}

std::string add_game_rating(Dialect d) {
    return in_dialect(d,
                      "INSERT INTO game_ratings (game_id, seat, player_id, variant, "
                      "rating_before, rd_before, volatility_before, rating_after, rd_after, "
                      "volatility_after, at) "
                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
}

std::string claim_game(Dialect d) {
    return in_dialect(d, "UPDATE games SET fence = ?2 WHERE id = ?1 AND fence <= ?2");
}

std::string fence_of(Dialect d) {
    return in_dialect(d, "SELECT fence FROM games WHERE id = ?1");
}

std::string checked_fence(Dialect d) {
    return fence_of(d) + std::string(share_lock(d));
}

}  // namespace server::sql::writes
