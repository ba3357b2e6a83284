#include "server/store/sql_reads.h"

namespace server::sql::reads {

namespace {

constexpr std::string_view game_columns =
    "id, variant, rules, start_fen, seed, rounds, private, status, result_json, created_at, "
    "finished_at, time_control, rated, access_key, fence, tournament_id, berserkable";

std::string account_where(Dialect d, std::string_view where) {
    return in_dialect(d,
                      "SELECT player_id, username, password_hash, admin, created_at "
                      "FROM accounts WHERE " +
                          std::string(where));
}

std::string game_ratings_where(Dialect d, std::string_view where) {
    return in_dialect(d,
                      "SELECT game_id, seat, player_id, variant, rating_before, rd_before, "
                      "volatility_before, rating_after, rd_after, volatility_after, at "
                      "FROM game_ratings WHERE " +
                          std::string(where));
}

// The finished games of ?1 that viewer ?2 may see, with `seat` (?1's seat), `winner`, `reason`.
std::string visible_games(Dialect d) {
    return "SELECT g.id AS id, g.variant AS variant, g.rated AS rated, "
           "g.finished_at AS finished_at, g." +
           std::string(insertion_order(d)) + " AS row, s.seat AS seat, " +
           json_field(d, "g.result_json", "winner") + " AS winner, " +
           json_field(d, "g.result_json", "reason") +
           " AS reason "
           "FROM games g JOIN game_seats s ON s.game_id = g.id AND s.player_id = ?1 "
           "WHERE g.status = 'finished' AND (g.private = 0 OR EXISTS "
           "(SELECT 1 FROM game_seats v WHERE v.game_id = g.id AND v.player_id = CAST(?2 AS "
           "TEXT)))";
}

// Outcome conditions over visible_games.
constexpr std::string_view won =
    "((seat = 0 AND winner IN ('white', 'player0')) OR (seat = 1 AND winner IN ('black', "
    "'player1')))";
constexpr std::string_view lost =
    "((seat = 1 AND winner IN ('white', 'player0')) OR (seat = 0 AND winner IN ('black', "
    "'player1')))";
constexpr std::string_view drawn = "(winner IS NULL AND COALESCE(reason, '') <> 'aborted')";

}  // namespace

std::string player(Dialect d) {
    return in_dialect(d, "SELECT id, name, token_hash, created_at FROM players WHERE id = ?1");
}

std::string player_by_token_hash(Dialect d) {
    return in_dialect(d,
                      "SELECT p.id, p.name, p.token_hash, p.created_at FROM sessions s "
                      "JOIN players p ON p.id = s.player_id WHERE s.token_hash = ?1");
}

std::string games(Dialect d, std::string_view where) {
    std::string sql = "SELECT " + std::string(game_columns);
    if (d == Dialect::postgres) {
        sql +=
            ", (SELECT string_agg(player_id, chr(31) ORDER BY seat) FROM game_seats "
            "WHERE game_id = games.id)";
    }
    return in_dialect(d, sql + " FROM games " + std::string(where));
}

std::string unfinished_games_clause(Dialect d) {
    return "WHERE status = 'active' ORDER BY created_at, " + std::string(insertion_order(d));
}

std::string seats_of_game(Dialect d) {
    return in_dialect(d, "SELECT player_id FROM game_seats WHERE game_id = ?1 ORDER BY seat");
}

std::string unfinished_game_ids_of(Dialect d) {
    return in_dialect(d,
                      "SELECT g.id FROM game_seats s JOIN games g ON g.id = s.game_id "
                      "WHERE s.player_id = ?1 AND g.status = 'active' "
                      "ORDER BY g.created_at, g." +
                          std::string(insertion_order(d)));
}

std::string events(Dialect d) {
    return in_dialect(
        d, "SELECT version, json FROM events WHERE game_id = ?1 AND version > ?2 ORDER BY version");
}

std::string chat_lines(Dialect d) {
    return in_dialect(d,
                      "SELECT channel, player_id, name, seat, text, at FROM chat_lines "
                      "WHERE game_id = ?1 ORDER BY n");
}

std::string seeks(Dialect d) {
    return in_dialect(
        d, "SELECT id, json, node, run FROM seeks ORDER BY " + std::string(insertion_order(d)));
}

std::string server_runs(Dialect d) {
    return in_dialect(d, "SELECT started_at, alive_at FROM server_runs ORDER BY started_at");
}

namespace {

// The analyses' columns with their claiming run's alive_at (analysis_from_row), then `where`.
std::string analyses_where(Dialect d, std::string_view where) {
    return in_dialect(d,
                      "SELECT a.game_id, a.status, a.json, a.updated_at, a.node, a.run, "
                      "a.positions_done, a.positions_total, COALESCE(r.alive_at, 0) "
                      "FROM analyses a LEFT JOIN server_runs r ON r.started_at = a.run " +
                          std::string(where));
}

}  // namespace

std::string analysis(Dialect d) {
    return analyses_where(d, "WHERE a.game_id = ?1");
}

std::string queued_analyses(Dialect d) {
    return analyses_where(
        d, "WHERE a.status = 'queued' ORDER BY a.updated_at, a." + std::string(insertion_order(d)));
}

std::string account(Dialect d) {
    return account_where(d, "player_id = ?1");
}

std::string account_by_username_key(Dialect d) {
    return account_where(d, "username_key = ?1");
}

std::string moderation(Dialect d) {
    return in_dialect(d, "SELECT muted, closed FROM players WHERE id = ?1");
}

std::string muted_players(Dialect d) {
    return in_dialect(d, "SELECT id FROM players WHERE muted = 1");
}

std::string ratings_of(Dialect d) {
    return in_dialect(d,
                      "SELECT variant, rating, rd, volatility, games, last_played FROM ratings "
                      "WHERE player_id = ?1 ORDER BY variant");
}

std::string rating_in(Dialect d) {
    return in_dialect(d,
                      "SELECT variant, rating, rd, volatility, games, last_played FROM ratings "
                      "WHERE player_id = ?1 AND variant = ?2");
}

std::string game_ratings(Dialect d) {
    return game_ratings_where(d, "game_id = ?1 ORDER BY seat");
}

std::string rating_history(Dialect d) {
    return game_ratings_where(d, "player_id = ?1 ORDER BY at, " + std::string(insertion_order(d)));
}

std::string leaderboard(Dialect d) {
    return in_dialect(
        d,
        "SELECT r.player_id, p.name, r.rating, r.rd, r.volatility, r.games, r.last_played "
        "FROM ratings r JOIN players p ON p.id = r.player_id "
        "WHERE r.variant = ?1 AND r.rd <= ?2 AND r.last_played >= ?3 AND p.closed = 0 "
        "ORDER BY r.rating DESC, r.player_id LIMIT ?4");
}

std::string find_games(Dialect d, std::string_view result) {
    std::string sql = "SELECT id FROM (" + visible_games(d) +
                      ") visible WHERE (CAST(?3 AS TEXT) = '' OR variant = CAST(?3 AS TEXT)) "
                      "AND (CAST(?4 AS INTEGER) < 0 OR rated = CAST(?4 AS INTEGER))";
    if (result == "win") {
        sql += " AND " + std::string(won);
    } else if (result == "loss") {
        sql += " AND " + std::string(lost);
    } else if (result == "draw") {
        sql += " AND " + std::string(drawn);
    }
    return in_dialect(d, sql + " ORDER BY finished_at DESC, row DESC LIMIT ?5 OFFSET ?6");
}

std::string tally(Dialect d) {
    return in_dialect(d, "SELECT COUNT(*), COUNT(*) FILTER (WHERE " + std::string(won) +
                             "), COUNT(*) FILTER (WHERE " + std::string(drawn) +
                             "), COUNT(*) FILTER (WHERE " + std::string(lost) + ") FROM (" +
                             visible_games(d) + ") visible");
}

}  // namespace server::sql::reads
