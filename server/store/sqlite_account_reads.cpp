#include "server/store/sqlite_account_reads.h"

#include <algorithm>
#include <string>

#include "server/store/sql_reads.h"
#include "server/store/sql_rows.h"
#include "server/store/sqlite_reads.h"
#include "server/store/username_key.h"

namespace server::sqlite_account_reads {

namespace {

using sqlite::Connection;
using sqlite::Statement;

using sqlite_reads::or_error;
using sqlite_reads::query;

constexpr auto dialect = sql::Dialect::sqlite;

core::Expected<std::optional<AccountRecord>> find_account(Connection& db, std::string_view what,
                                                          const std::string& sql,
                                                          std::string_view key) {
    std::optional<AccountRecord> found;
    auto status = query(
        db, what, sql, [&](Statement& s) { s.bind(1, key); },
        [&](const Statement& s) { found = sql::account_from_row(s); });
    return or_error(status, std::move(found));
}

core::Expected<std::vector<GameRating>> find_game_ratings(Connection& db, std::string_view what,
                                                          const std::string& sql,
                                                          std::string_view key) {
    std::vector<GameRating> rows;
    auto status = query(
        db, what, sql, [&](Statement& s) { s.bind(1, key); },
        [&](const Statement& s) { rows.push_back(sql::game_rating_from_row(s)); });
    return or_error(status, std::move(rows));
}

}  // namespace

core::Expected<std::optional<AccountRecord>> account(Connection& db, std::string_view player_id) {
    return find_account(db, "the account of " + std::string(player_id),
                        sql::reads::account(dialect), player_id);
}

core::Expected<std::optional<AccountRecord>> account_by_username(Connection& db,
                                                                 std::string_view username) {
    return find_account(db, "the account named " + std::string(username),
                        sql::reads::account_by_username_key(dialect), username_key(username));
}

core::Expected<Moderation> moderation(Connection& db, std::string_view player_id) {
    Moderation found;
    auto status = query(
        db, "the moderation of " + std::string(player_id), sql::reads::moderation(dialect),
        [&](Statement& s) { s.bind(1, player_id); },
        [&](const Statement& s) {
            found = Moderation{s.integer(0) != 0, s.integer(1) != 0};
        });
    return or_error(status, found);
}

core::Expected<std::vector<std::string>> muted_players(Connection& db) {
    std::vector<std::string> ids;
    auto status = query(
        db, "the muted players", sql::reads::muted_players(dialect), [](Statement&) {},
        [&](const Statement& s) { ids.push_back(s.text(0)); });
    return or_error(status, std::move(ids));
}

core::Expected<std::vector<RatingRecord>> ratings_of(Connection& db, std::string_view player_id) {
    std::vector<RatingRecord> rows;
    auto status = query(
        db, "the ratings of " + std::string(player_id), sql::reads::ratings_of(dialect),
        [&](Statement& s) { s.bind(1, player_id); },
        [&](const Statement& s) { rows.push_back(sql::rating_from_row(player_id, s)); });
    return or_error(status, std::move(rows));
}

core::Expected<std::vector<GameRating>> game_ratings(Connection& db, std::string_view game_id) {
    return find_game_ratings(db, "the rating changes of game " + std::string(game_id),
                             sql::reads::game_ratings(dialect), game_id);
}

core::Expected<std::vector<GameRating>> rating_history(Connection& db, std::string_view player_id) {
    return find_game_ratings(db, "the rating history of " + std::string(player_id),
                             sql::reads::rating_history(dialect), player_id);
}

core::Expected<std::vector<LeaderboardRow>> leaderboard(Connection& db, std::string_view variant,
                                                        double max_rd, std::int64_t active_since,
                                                        int limit) {
    std::vector<LeaderboardRow> rows;
    auto status = query(
        db, "the " + std::string(variant) + " leaderboard", sql::reads::leaderboard(dialect),
        [&](Statement& s) {
            s.bind(1, variant).bind_real(2, max_rd).bind(3, active_since);
            s.bind(4, std::int64_t{std::max(limit, 0)});
        },
        [&](const Statement& s) { rows.push_back(sql::leaderboard_row_from_row(variant, s)); });
    return or_error(status, std::move(rows));
}

core::Expected<std::vector<GameRecord>> find_games(Connection& db, const GameQuery& q) {
    std::vector<std::string> ids;
    auto status = query(
        db, "the games of " + q.player_id, sql::reads::find_games(dialect, q.result),
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
        db, "the game tally of " + std::string(player_id), sql::reads::tally(dialect),
        [&](Statement& s) { s.bind(1, player_id).bind(2, viewer_id); },
        [&](const Statement& s) {
            found = GameTally{static_cast<int>(s.integer(0)), static_cast<int>(s.integer(1)),
                              static_cast<int>(s.integer(2)), static_cast<int>(s.integer(3))};
        });
    return or_error(status, found);
}

}  // namespace server::sqlite_account_reads
