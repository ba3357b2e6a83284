// Which games change ratings and how a finished rated game is rated (server/game/rating_rules.h).
#include "server/game/rating_rules.h"

#include <gtest/gtest.h>

namespace {

using protocol::events::Result;
namespace glicko2 = server::glicko2;

TEST(RatingRules, TheFirstSeatsScoreFollowsTheResultAndAnAbortedGameRatesNobody) {
    EXPECT_EQ(server::first_seat_score(Result{"white", "checkmate"}, "white"), 1.0);
    EXPECT_EQ(server::first_seat_score(Result{"black", "resignation"}, "white"), 0.0);
    EXPECT_EQ(server::first_seat_score(Result{std::nullopt, "agreement"}, "white"), 0.5);
    EXPECT_EQ(server::first_seat_score(Result{"player0", "match_won"}, "player0"), 1.0);
    EXPECT_EQ(server::first_seat_score(Result{"player1", "match_won"}, "player0"), 0.0);
    EXPECT_FALSE(server::first_seat_score(Result{std::nullopt, "aborted"}, "white").has_value());
    EXPECT_FALSE(server::first_seat_score(Result{"white", "aborted"}, "white").has_value());
}

TEST(RatingRules, NewPlayersStartFromTheDefaultRating) {
    const auto rated = server::rate_seats({std::nullopt, std::nullopt}, 1'000'000, 1.0);
    ASSERT_EQ(rated.size(), 2u);
    EXPECT_EQ(rated[0].before.rating, 1500.0);
    EXPECT_EQ(rated[0].before.rd, 350.0);
    const auto expected = glicko2::rate_game({}, 0.0, {}, 0.0, 1.0);
    EXPECT_DOUBLE_EQ(rated[0].after.rating, expected.first.rating);
    EXPECT_DOUBLE_EQ(rated[1].after.rating, expected.second.rating);
}

TEST(RatingRules, IdleDaysGrowTheRdBeforeTheGameIsRated) {
    const std::int64_t day = 86400;
    server::RatingRecord ann{"p_ann", "chessence", {1700.0, 60.0, 0.06}, 30, 100 * day};
    server::RatingRecord bob{"p_bob", "chessence", {1650.0, 60.0, 0.06}, 30, 190 * day};
    const auto rated = server::rate_seats({ann, bob}, 190 * day, 0.5);
    ASSERT_EQ(rated.size(), 2u);
    EXPECT_EQ(rated[0].before.rd, 60.0) << "the stored rating is what `before` shows";
    const auto aged = glicko2::after_inactivity({1700.0, 60.0, 0.06}, 90.0);
    EXPECT_GT(aged.rd, 60.0);
    const auto expected =
        glicko2::rate_game({1700.0, 60.0, 0.06}, 90.0, {1650.0, 60.0, 0.06}, 0.0, 0.5);
    EXPECT_DOUBLE_EQ(rated[0].after.rating, expected.first.rating);
    EXPECT_DOUBLE_EQ(rated[0].after.rd, expected.first.rd);
    EXPECT_DOUBLE_EQ(rated[1].after.rd, expected.second.rd);
    EXPECT_LT(rated[0].after.rating, 1700.0) << "a draw against a lower rating costs points";
}

}  // namespace
