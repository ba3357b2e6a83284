// The account, moderation, rating and game-history reads on PostgreSQL (postgres_reads.h), the
// same answers as sqlite_account_reads.cpp.
#include <algorithm>
#include <string>

#include "server/store/postgres_reads.h"
#include "server/store/username_key.h"

namespace server::pg_reads {

namespace {

using pg::Connection;
using pg::Params;
using pg::Result;

core::Expected<std::optional<AccountRecord>> find_account(Connection& db, std::string_view what,
                                                          const std::string& where,
                                                          std::string_view key) {
    std::optional<AccountRecord> found;
    auto status = query(
        db, what,
        "SELECT player_id, username, password_hash, admin, created_at FROM accounts WHERE " + where,
        Params(key), [&](const Result& r, int i) {
            found = AccountRecord{r.text(i, 0), r.text(i, 1), r.text(i, 2), r.integer(i, 3) != 0,
                                  r.integer(i, 4)};
        });
    return or_error(status, std::move(found));
}

core::Expected<std::vector<GameRating>> game_ratings_where(Connection& db, std::string_view what,
                                                           const std::string& where,
                                                           std::string_view key) {
    std::vector<GameRating> rows;
    auto status = query(
        db, what,
        "SELECT game_id, seat, player_id, variant, rating_before, rd_before, volatility_before, "
        "rating_after, rd_after, volatility_after, at FROM game_ratings WHERE " +
            where,
        Params(key), [&](const Result& r, int i) {
            rows.push_back(GameRating{r.text(i, 0),
                                      static_cast<int>(r.integer(i, 1)),
                                      r.text(i, 2),
                                      r.text(i, 3),
                                      {r.real(i, 4), r.real(i, 5), r.real(i, 6)},
                                      {r.real(i, 7), r.real(i, 8), r.real(i, 9)},
                                      r.integer(i, 10)});
        });
    return or_error(status, std::move(rows));
}

// The finished games of $1 that viewer $2 may see, with `seat` ($1's seat) and `winner`.
constexpr const char* visible_games =
    "SELECT g.id AS id, g.variant AS variant, g.rated AS rated, g.finished_at AS finished_at, "
    "g.seq AS row, s.seat AS seat, json_field(g.result_json, 'winner') AS winner, "
    "json_field(g.result_json, 'reason') AS reason "
    "FROM games g JOIN game_seats s ON s.game_id = g.id AND s.player_id = $1 "
    "WHERE g.status = 'finished' AND (g.private = 0 OR EXISTS "
    "(SELECT 1 FROM game_seats v WHERE v.game_id = g.id AND v.player_id = $2::TEXT))";

// Outcome conditions over visible_games.
constexpr const char* won =
    "((seat = 0 AND winner IN ('white', 'player0')) OR (seat = 1 AND winner IN ('black', "
    "'player1')))";
constexpr const char* lost =
    "((seat = 1 AND winner IN ('white', 'player0')) OR (seat = 0 AND winner IN ('black', "
    "'player1')))";
constexpr const char* drawn = "(winner IS NULL AND COALESCE(reason, '') <> 'aborted')";

}  // namespace

core::Expected<std::optional<AccountRecord>> account(Connection& db, std::string_view player_id) {
    return find_account(db, "the account of " + std::string(player_id), "player_id = $1",
                        player_id);
}

core::Expected<std::optional<AccountRecord>> account_by_username(Connection& db,
                                                                 std::string_view username) {
    return find_account(db, "the account named " + std::string(username), "username_key = $1",
                        username_key(username));
}

core::Expected<Moderation> moderation(Connection& db, std::string_view player_id) {
    Moderation found;
    auto status = query(db, "the moderation of " + std::string(player_id),
                        "SELECT muted, closed FROM players WHERE id = $1", Params(player_id),
                        [&](const Result& r, int i) {
                            found = Moderation{r.integer(i, 0) != 0, r.integer(i, 1) != 0};
                        });
    return or_error(status, found);
}

core::Expected<std::vector<std::string>> muted_players(Connection& db) {
    std::vector<std::string> ids;
    auto status = query(db, "the muted players", "SELECT id FROM players WHERE muted = 1", Params(),
                        [&](const Result& r, int i) { ids.push_back(r.text(i, 0)); });
    return or_error(status, std::move(ids));
}

core::Expected<std::vector<RatingRecord>> ratings_of(Connection& db, std::string_view player_id) {
    std::vector<RatingRecord> rows;
    auto status = query(db, "the ratings of " + std::string(player_id),
                        "SELECT variant, rating, rd, volatility, games, last_played FROM ratings "
                        "WHERE player_id = $1 ORDER BY variant",
                        Params(player_id), [&](const Result& r, int i) {
                            rows.push_back(RatingRecord{std::string(player_id),
                                                        r.text(i, 0),
                                                        {r.real(i, 1), r.real(i, 2), r.real(i, 3)},
                                                        static_cast<int>(r.integer(i, 4)),
                                                        r.integer(i, 5)});
                        });
    return or_error(status, std::move(rows));
}

core::Expected<std::vector<GameRating>> game_ratings(Connection& db, std::string_view game_id) {
    return game_ratings_where(db, "the rating changes of game " + std::string(game_id),
                              "game_id = $1 ORDER BY seat", game_id);
}

core::Expected<std::vector<GameRating>> rating_history(Connection& db, std::string_view player_id) {
    return game_ratings_where(db, "the rating history of " + std::string(player_id),
                              "player_id = $1 ORDER BY at, seq", player_id);
}

core::Expected<std::vector<LeaderboardRow>> leaderboard(Connection& db, std::string_view variant,
                                                        double max_rd, std::int64_t active_since,
                                                        int limit) {
    std::vector<LeaderboardRow> rows;
    auto status = query(
        db, "the " + std::string(variant) + " leaderboard",
        "SELECT r.player_id, p.name, r.rating, r.rd, r.volatility, r.games, r.last_played "
        "FROM ratings r JOIN players p ON p.id = r.player_id "
        "WHERE r.variant = $1 AND r.rd <= $2 AND r.last_played >= $3 AND p.closed = 0 "
        "ORDER BY r.rating DESC, r.player_id LIMIT $4",
        Params(variant, max_rd, active_since, std::max(limit, 0)), [&](const Result& r, int i) {
            rows.push_back(LeaderboardRow{r.text(i, 0),
                                          r.text(i, 1),
                                          {r.text(i, 0),
                                           std::string(variant),
                                           {r.real(i, 2), r.real(i, 3), r.real(i, 4)},
                                           static_cast<int>(r.integer(i, 5)),
                                           r.integer(i, 6)}});
        });
    return or_error(status, std::move(rows));
}

core::Expected<std::vector<GameRecord>> find_games(Connection& db, const GameQuery& q) {
    std::string sql = std::string("SELECT id FROM (") + visible_games +
                      ") visible WHERE ($3::TEXT = '' OR variant = $3::TEXT) "
                      "AND ($4::INTEGER < 0 OR rated = $4::INTEGER)";
    if (q.result == "win") {
        sql += std::string(" AND ") + won;
    } else if (q.result == "loss") {
        sql += std::string(" AND ") + lost;
    } else if (q.result == "draw") {
        sql += std::string(" AND ") + drawn;
    }
    sql += " ORDER BY finished_at DESC, row DESC LIMIT $5 OFFSET $6";
    std::vector<std::string> ids;
    auto status =
        query(db, "the games of " + q.player_id, sql,
              Params(q.player_id, q.viewer_id, q.variant, q.rated ? (*q.rated ? 1 : 0) : -1,
                     std::max(q.limit, 0), std::max(q.offset, 0)),
              [&](const Result& r, int i) { ids.push_back(r.text(i, 0)); });
    if (!status) {
        return core::make_error(status.error());
    }
    std::vector<GameRecord> games;
    for (const auto& id : ids) {
        auto found = game(db, id);
        if (!found) {
            return core::make_error(found.error());
        }
        if (*found) {
            games.push_back(std::move(**found));
        }
    }
    return games;
}

core::Expected<GameTally> tally(Connection& db, std::string_view player_id,
                                std::string_view viewer_id) {
    GameTally found;
    auto status = query(
        db, "the game tally of " + std::string(player_id),
        std::string("SELECT COUNT(*), COUNT(*) FILTER (WHERE ") + won +
            "), COUNT(*) FILTER (WHERE " + drawn + "), COUNT(*) FILTER (WHERE " + lost +
            ") FROM (" + visible_games + ") visible",
        Params(player_id, viewer_id), [&](const Result& r, int i) {
            found = GameTally{static_cast<int>(r.integer(i, 0)), static_cast<int>(r.integer(i, 1)),
                              static_cast<int>(r.integer(i, 2)), static_cast<int>(r.integer(i, 3))};
        });
    return or_error(status, found);
}

}  // namespace server::pg_reads
