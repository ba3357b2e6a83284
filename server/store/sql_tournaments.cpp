#include "server/store/sql_tournaments.h"

namespace server::sql {

namespace {

constexpr std::string_view tournament_columns =
    "id, kind, name, variant, created_by, config_json, status, starts_at, ends_at, created_at, "
    "password_hash, players, winner_json";

// The tournaments' columns (tournament_from_row), then `clause`.
std::string tournaments_where(Dialect d, std::string_view clause) {
    return in_dialect(d, "SELECT " + std::string(tournament_columns) + " FROM tournaments " +
                             std::string(clause));
}

}  // namespace

namespace writes {

std::string create_tournament(Dialect d) {
    return in_dialect(d, "INSERT INTO tournaments (" + std::string(tournament_columns) +
                             ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
}

std::string tournament_log_state(Dialect d) {
    return in_dialect(d,
                      "SELECT CASE WHEN EXISTS (SELECT 1 FROM tournaments WHERE id = ?1) THEN 1 "
                      "ELSE 0 END, (SELECT COALESCE(MAX(version), 0) FROM tournament_events "
                      "WHERE tournament_id = ?1)");
}

std::string append_tournament_event(Dialect d) {
    return in_dialect(
        d, "INSERT INTO tournament_events (tournament_id, version, json) VALUES (?1, ?2, ?3)");
}

std::string set_tournament_status(Dialect d) {
    return in_dialect(d,
                      "UPDATE tournaments SET status = ?2, players = ?3, winner_json = CASE WHEN "
                      "CAST(?4 AS TEXT) = '' THEN winner_json ELSE CAST(?4 AS TEXT) END "
                      "WHERE id = ?1");
}

}  // namespace writes

namespace reads {

std::string tournament(Dialect d) {
    return tournaments_where(d, "WHERE id = ?1");
}

std::string tournaments(Dialect d, std::string_view status) {
    const std::string order = status == "finished"  ? "ends_at DESC, "
                              : status == "started" ? "ends_at, "
                                                    : "starts_at, ";
    // LIMIT takes ?3 as a number on both: PostgreSQL reads an untyped parameter there as bigint.
    return tournaments_where(d,
                             "WHERE status = ?1 AND (CAST(?2 AS TEXT) = '' OR kind = "
                             "CAST(?2 AS TEXT)) ORDER BY " +
                                 order + "created_at, " + std::string(insertion_order(d)) +
                                 " LIMIT ?3");
}

std::string unfinished_tournaments(Dialect d) {
    return tournaments_where(d, "WHERE status IN ('created', 'started') ORDER BY created_at, " +
                                    std::string(insertion_order(d)));
}

std::string tournament_events(Dialect d) {
    return in_dialect(d,
                      "SELECT version, json FROM tournament_events WHERE tournament_id = ?1 AND "
                      "version > ?2 ORDER BY version");
}

std::string tournaments_created_since(Dialect d) {
    return in_dialect(
        d, "SELECT COUNT(*) FROM tournaments WHERE created_by = ?1 AND created_at >= ?2");
}

std::string tournament_games_clause(Dialect d) {
    // The second term matches the partial index games_by_tournament (tournament_id <> '').
    return "WHERE tournament_id = ?1 AND tournament_id <> '' ORDER BY created_at, " +
           std::string(insertion_order(d));
}

}  // namespace reads

}  // namespace server::sql
