#include "server/store/sqlite_account_reads.h"

#include <algorithm>
#include <string>

#include "server/store/sqlite_reads.h"
#include "server/store/username_key.h"

namespace server::sqlite_account_reads {

namespace {

using sqlite::Connection;
using sqlite::Statement;

using sqlite_reads::or_error;
using sqlite_reads::query;

core::Expected<std::optional<AccountRecord>> find_account(Connection& db, std::string_view what,
                                                          const std::string& where,
                                                          std::string_view key) {
    std::optional<AccountRecord> found;
    auto status = query(
        db, what,
        "SELECT player_id, username, password_hash, admin, created_at FROM accounts WHERE " + where,
        [&](Statement& s) { s.bind(1, key); },
        [&](const Statement& s) {
            found = AccountRecord{s.text(0), s.text(1), s.text(2), s.integer(3) != 0, s.integer(4)};
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
        [&](Statement& s) { s.bind(1, key); },
        [&](const Statement& s) {
            rows.push_back(GameRating{s.text(0),
                                      static_cast<int>(s.integer(1)),
                                      s.text(2),
                                      s.text(3),
                                      {s.real(4), s.real(5), s.real(6)},
                                      {s.real(7), s.real(8), s.real(9)},
                                      s.integer(10)});
        });
    return or_error(status, std::move(rows));
}

// The finished games of ?1 that viewer ?2 may see, with `seat` (?1's seat) and `winner`.
constexpr const char* visible_games =
    "SELECT g.id AS id, g.variant AS variant, g.rated AS rated, g.finished_at AS finished_at, "
    "g.rowid AS row, s.seat AS seat, "
    "CASE WHEN json_valid(g.result_json) THEN json_extract(g.result_json, '$.winner') END "
    "AS winner, "
    "CASE WHEN json_valid(g.result_json) THEN json_extract(g.result_json, '$.reason') END "
    "AS reason "
    "FROM games g JOIN game_seats s ON s.game_id = g.id AND s.player_id = ?1 "
    "WHERE g.status = 'finished' AND (g.private = 0 OR EXISTS "
    "(SELECT 1 FROM game_seats v WHERE v.game_id = g.id AND v.player_id = ?2))";

// Outcome columns over visible_games: 1 or 0.
constexpr const char* won =
    "((seat = 0 AND winner IN ('white', 'player0')) OR (seat = 1 AND winner IN ('black', "
    "'player1')))";
constexpr const char* lost =
    "((seat = 1 AND winner IN ('white', 'player0')) OR (seat = 0 AND winner IN ('black', "
    "'player1')))";
constexpr const char* drawn = "(winner IS NULL AND COALESCE(reason, '') <> 'aborted')";

}  // namespace

core::Expected<std::optional<AccountRecord>> account(Connection& db, std::string_view player_id) {
    return find_account(db, "the account of " + std::string(player_id), "player_id = ?", player_id);
}

core::Expected<std::optional<AccountRecord>> account_by_username(Connection& db,
                                                                 std::string_view username) {
    return find_account(db, "the account named " + std::string(username), "username_key = ?",
                        username_key(username));
}

core::Expected<Moderation> moderation(Connection& db, std::string_view player_id) {
    Moderation found;
    auto status = query(
        db, "the moderation of " + std::string(player_id),
        "SELECT muted, closed FROM players WHERE id = ?",
        [&](Statement& s) { s.bind(1, player_id); },
        [&](const Statement& s) {
            found = Moderation{s.integer(0) != 0, s.integer(1) != 0};
        });
    return or_error(status, found);
}

core::Expected<std::vector<std::string>> muted_players(Connection& db) {
    std::vector<std::string> ids;
    auto status = query(
        db, "the muted players", "SELECT id FROM players WHERE muted = 1", [](Statement&) {},
        [&](const Statement& s) { ids.push_back(s.text(0)); });
    return or_error(status, std::move(ids));
}

core::Expected<std::vector<RatingRecord>> ratings_of(Connection& db, std::string_view player_id) {
    std::vector<RatingRecord> rows;
    auto status = query(
        db, "the ratings of " + std::string(player_id),
        "SELECT variant, rating, rd, volatility, games, last_played FROM ratings "
        "WHERE player_id = ? ORDER BY variant",
        [&](Statement& s) { s.bind(1, player_id); },
        [&](const Statement& s) {
            rows.push_back(RatingRecord{std::string(player_id),
                                        s.text(0),
                                        {s.real(1), s.real(2), s.real(3)},
                                        static_cast<int>(s.integer(4)),
                                        s.integer(5)});
        });
    return or_error(status, std::move(rows));
}

core::Expected<std::vector<GameRating>> game_ratings(Connection& db, std::string_view game_id) {
    return game_ratings_where(db, "the rating changes of game " + std::string(game_id),
                              "game_id = ? ORDER BY seat", game_id);
}

core::Expected<std::vector<GameRating>> rating_history(Connection& db, std::string_view player_id) {
    return game_ratings_where(db, "the rating history of " + std::string(player_id),
                              "player_id = ? ORDER BY at, rowid", player_id);
}

core::Expected<std::vector<LeaderboardRow>> leaderboard(Connection& db, std::string_view variant,
                                                        double max_rd, std::int64_t active_since,
                                                        int limit) {
    std::vector<LeaderboardRow> rows;
    auto status = query(
        db, "the " + std::string(variant) + " leaderboard",
        "SELECT r.player_id, p.name, r.rating, r.rd, r.volatility, r.games, r.last_played "
        "FROM ratings r JOIN players p ON p.id = r.player_id "
        "WHERE r.variant = ? AND r.rd <= ? AND r.last_played >= ? AND p.closed = 0 "
        "ORDER BY r.rating DESC, r.player_id LIMIT ?",
        [&](Statement& s) {
            s.bind(1, variant).bind_real(2, max_rd).bind(3, active_since);
            s.bind(4, std::int64_t{std::max(limit, 0)});
        },
        [&](const Statement& s) {
            rows.push_back(LeaderboardRow{s.text(0),
                                          s.text(1),
                                          {s.text(0),
                                           std::string(variant),
                                           {s.real(2), s.real(3), s.real(4)},
                                           static_cast<int>(s.integer(5)),
                                           s.integer(6)}});
        });
    return or_error(status, std::move(rows));
}

core::Expected<std::vector<GameRecord>> find_games(Connection& db, const GameQuery& q) {
    std::string sql = std::string("SELECT id FROM (") + visible_games +
                      ") WHERE (?3 = '' OR variant = ?3) AND (?4 < 0 OR rated = ?4)";
    if (q.result == "win") {
        sql += std::string(" AND ") + won;
    } else if (q.result == "loss") {
        sql += std::string(" AND ") + lost;
    } else if (q.result == "draw") {
        sql += std::string(" AND ") + drawn;
    }
    sql += " ORDER BY finished_at DESC, row DESC LIMIT ?5 OFFSET ?6";
    std::vector<std::string> ids;
    auto status = query(
        db, "the games of " + q.player_id, sql,
        [&](Statement& s) {
            s.bind(1, q.player_id).bind(2, q.viewer_id).bind(3, q.variant);
            s.bind(4, std::int64_t{q.rated ? (*q.rated ? 1 : 0) : -1});
            s.bind(5, std::int64_t{std::max(q.limit, 0)})
                .bind(6, std::int64_t{std::max(q.offset, 0)});
        },
        [&](const Statement& s) { ids.push_back(s.text(0)); });
    if (!status) {
        return core::make_error(status.error());
    }
    std::vector<GameRecord> games;
    for (const auto& id : ids) {
        auto game = sqlite_reads::game(db, id);
        if (!game) {
            return core::make_error(game.error());
        }
        if (*game) {
            games.push_back(std::move(**game));
        }
    }
    return games;
}

core::Expected<GameTally> tally(Connection& db, std::string_view player_id,
                                std::string_view viewer_id) {
    GameTally found;
    auto status = query(
        db, "the game tally of " + std::string(player_id),
        std::string("SELECT COUNT(*), COALESCE(SUM(") + won + "), 0), COALESCE(SUM(" + drawn +
            "), 0), COALESCE(SUM(" + lost + "), 0) FROM (" + visible_games + ")",
        [&](Statement& s) { s.bind(1, player_id).bind(2, viewer_id); },
        [&](const Statement& s) {
            found = GameTally{static_cast<int>(s.integer(0)), static_cast<int>(s.integer(1)),
                              static_cast<int>(s.integer(2)), static_cast<int>(s.integer(3))};
        });
    return or_error(status, found);
}

}  // namespace server::sqlite_account_reads
