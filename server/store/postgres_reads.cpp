#include "server/store/postgres_reads.h"

#include <string>

#include "server/store/sql_reads.h"
#include "server/store/sql_rows.h"
#include "server/store/sql_tournaments.h"

namespace server::pg_reads {

namespace {

using pg::Connection;
using pg::Params;
using pg::Row;

core::Expected<std::optional<PlayerRecord>> find_player(Connection& db, std::string_view what,
                                                        const std::string& sql,
                                                        std::string_view key) {
    std::optional<PlayerRecord> found;
    auto status =
        query(db, what, sql, Params(key), [&](const Row& r) { found = sql::player_from_row(r); });
    return or_error(status, std::move(found));
}

// The games reads::games selects with `where`, each with its seats, read in the same statement
// (joined by the unit separator, which no player id holds).
core::Expected<std::vector<GameRecord>> query_games(Connection& db, std::string_view what,
                                                    std::string_view where, const Params& params) {
    std::vector<GameRecord> games;
    auto status = query(db, what, sql::reads::games(dialect, where), params, [&](const Row& r) {
        auto g = sql::game_from_row(r);
        const auto seats = r.text(sql::reads::game_column_count);
        for (std::size_t at = 0; at < seats.size();) {
            auto end = seats.find('\x1f', at);
            end = end == std::string::npos ? seats.size() : end;
            g.seats.push_back(seats.substr(at, end - at));
            at = end + 1;
        }
        games.push_back(std::move(g));
    });
    return or_error(status, std::move(games));
}

}  // namespace

core::Expected<std::optional<PlayerRecord>> player(Connection& db, std::string_view id) {
    return find_player(db, "player " + std::string(id), sql::reads::player(dialect), id);
}

core::Expected<std::optional<PlayerRecord>> player_by_token_hash(Connection& db,
                                                                 std::string_view token_hash) {
    return find_player(db, "the player of a session token",
                       sql::reads::player_by_token_hash(dialect), token_hash);
}

core::Expected<std::optional<GameRecord>> game(Connection& db, std::string_view id) {
    auto games = query_games(db, "game " + std::string(id), sql::reads::game_by_id, Params(id));
    if (!games) {
        return core::make_error(games.error());
    }
    if (games->empty()) {
        return std::nullopt;
    }
    return std::move(games->front());
}

core::Expected<std::vector<GameRecord>> unfinished_games(Connection& db) {
    return query_games(db, "the unfinished games", sql::reads::unfinished_games_clause(dialect),
                       Params());
}

core::Expected<std::vector<GameRecord>> tournament_games(Connection& db,
                                                         std::string_view tournament_id) {
    return query_games(db, "the games of tournament " + std::string(tournament_id),
                       sql::reads::tournament_games_clause(dialect), Params(tournament_id));
}

core::Expected<std::vector<std::string>> unfinished_game_ids_of(Connection& db,
                                                                std::string_view player_id) {
    std::vector<std::string> out;
    auto status = query(db, "the unfinished games of player " + std::string(player_id),
                        sql::reads::unfinished_game_ids_of(dialect), Params(player_id),
                        [&](const Row& r) { out.push_back(r.text(0)); });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<StoredEvent>> events(Connection& db, std::string_view game_id,
                                                std::int64_t after_version) {
    std::vector<StoredEvent> out;
    auto status =
        query(db, "the events of game " + std::string(game_id), sql::reads::events(dialect),
              Params(game_id, after_version), [&](const Row& r) {
                  out.push_back(StoredEvent{r.integer(0), r.text(1)});
              });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<ChatLine>> chat_lines(Connection& db, std::string_view game_id) {
    std::vector<ChatLine> out;
    auto status = query(db, "the chat of game " + std::string(game_id),
                        sql::reads::chat_lines(dialect), Params(game_id),
                        [&](const Row& r) { out.push_back(sql::chat_line_from_row(game_id, r)); });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<SeekRecord>> seeks(Connection& db) {
    std::vector<SeekRecord> out;
    auto status = query(db, "the seeks", sql::reads::seeks(dialect), Params(),
                        [&](const Row& r) { out.push_back(sql::seek_from_row(r)); });
    return or_error(status, std::move(out));
}

core::Expected<std::vector<ServerRun>> server_runs(Connection& db) {
    std::vector<ServerRun> runs;
    auto status = query(db, "the server's runs", sql::reads::server_runs(dialect), Params(),
                        [&](const Row& r) {
                            runs.push_back({r.integer(0), r.integer(1)});
                        });
    return or_error(status, std::move(runs));
}

core::Expected<std::optional<AnalysisRecord>> analysis(Connection& db, std::string_view game_id) {
    std::optional<AnalysisRecord> found;
    auto status =
        query(db, "the analysis of game " + std::string(game_id), sql::reads::analysis(dialect),
              Params(game_id), [&](const Row& r) { found = sql::analysis_from_row(r); });
    return or_error(status, std::move(found));
}

core::Expected<std::vector<AnalysisRecord>> queued_analyses(Connection& db) {
    std::vector<AnalysisRecord> found;
    auto status = query(db, "the queued analyses", sql::reads::queued_analyses(dialect), Params(),
                        [&](const Row& r) { found.push_back(sql::analysis_from_row(r)); });
    return or_error(status, std::move(found));
}

}  // namespace server::pg_reads
