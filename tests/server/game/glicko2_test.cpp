#include "server/game/glicko2.h"

#include <gtest/gtest.h>

namespace {

using server::glicko2::GameResult;
using server::glicko2::Rating;
namespace glicko2 = server::glicko2;

// Glickman's worked example ("Example of the Glicko-2 system", 2013): a 1500/200 player beats a
// 1400/30 player and loses to 1550/100 and 1700/300 in one rating period, τ = 0.5.
TEST(Glicko2, ReproducesGlickmansWorkedExample) {
    const Rating player{1500.0, 200.0, 0.06};
    const auto after = glicko2::update(
        player,
        {{{1400.0, 30.0, 0.06}, 1.0}, {{1550.0, 100.0, 0.06}, 0.0}, {{1700.0, 300.0, 0.06}, 0.0}},
        0.5);
    EXPECT_NEAR(after.rating, 1464.06, 0.01);
    EXPECT_NEAR(after.rd, 151.52, 0.01);
    EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
}

TEST(Glicko2, NewPlayersStartAt1500With350And006) {
    const Rating fresh;
    EXPECT_EQ(fresh.rating, 1500.0);
    EXPECT_EQ(fresh.rd, 350.0);
    EXPECT_EQ(fresh.volatility, 0.06);
    EXPECT_TRUE(glicko2::provisional(fresh));
}

TEST(Glicko2, FirstGameBetweenNewPlayersMovesThemApartSymmetrically) {
    const auto rated = glicko2::rate_game({}, 0.0, {}, 0.0, 1.0);
    EXPECT_NEAR(rated.first.rating, 1662.31, 0.01);
    EXPECT_NEAR(rated.second.rating, 1337.69, 0.01);
    EXPECT_NEAR(rated.first.rd, 290.32, 0.01);
    EXPECT_DOUBLE_EQ(rated.first.rating - 1500.0, 1500.0 - rated.second.rating);
    EXPECT_DOUBLE_EQ(rated.first.rd, rated.second.rd);
}

TEST(Glicko2, DrawBetweenEqualsKeepsTheRatingAndShrinksRd) {
    const auto rated = glicko2::rate_game({}, 0.0, {}, 0.0, 0.5);
    EXPECT_DOUBLE_EQ(rated.first.rating, 1500.0);
    EXPECT_DOUBLE_EQ(rated.second.rating, 1500.0);
    EXPECT_NEAR(rated.first.rd, 290.32, 0.01);
    EXPECT_LT(rated.first.rd, 350.0);
}

TEST(Glicko2, DrawAgainstAStrongerPlayerGainsPoints) {
    const auto after = glicko2::update({1500.0, 200.0, 0.06}, {{{1800.0, 60.0, 0.06}, 0.5}});
    EXPECT_NEAR(after.rating, 1567.01, 0.01);
    EXPECT_NEAR(after.rd, 185.32, 0.01);
}

TEST(Glicko2, WinAgainstAMuchLowerRatingIsWorthAlmostNothing) {
    const Rating strong{2000.0, 50.0, 0.06};
    const Rating weak{1200.0, 50.0, 0.06};
    const auto won = glicko2::rate_game(strong, 0.0, weak, 0.0, 1.0);
    EXPECT_NEAR(won.first.rating, 2000.16, 0.01);
    EXPECT_NEAR(won.second.rating, 1199.84, 0.01);
    EXPECT_GT(won.first.rating, strong.rating);
    EXPECT_LT(won.first.rating - strong.rating, 0.2);
    // The same loss costs the favourite about 15 points.
    const auto lost = glicko2::rate_game(strong, 0.0, weak, 0.0, 0.0);
    EXPECT_NEAR(lost.first.rating, 1985.34, 0.01);
    EXPECT_GT(lost.first.volatility, strong.volatility);
}

TEST(Glicko2, RdGrowsWithInactivityAtTheDocumentedRate) {
    const Rating settled{1800.0, 50.0, 0.06};
    // φ² + σ²·(365 days × 0.21436 periods per day), back on the rating scale.
    const auto year = glicko2::after_inactivity(settled, 365.0);
    EXPECT_NEAR(year.rd, 104.88, 0.01);
    EXPECT_EQ(year.rating, settled.rating);
    EXPECT_EQ(year.volatility, settled.volatility);
    EXPECT_FALSE(glicko2::provisional(year));
    const auto later = glicko2::after_inactivity(settled, 500.0);
    EXPECT_GT(later.rd, year.rd);
    EXPECT_TRUE(glicko2::provisional(later));
    EXPECT_EQ(glicko2::after_inactivity(settled, 0.0).rd, settled.rd);
    EXPECT_DOUBLE_EQ(glicko2::after_inactivity(settled, 100000.0).rd, 350.0);
}

TEST(Glicko2, APeriodWithoutGamesGrowsRdByOneVolatility) {
    const auto after = glicko2::update({1500.0, 200.0, 0.06}, {});
    EXPECT_NEAR(after.rd, 200.27, 0.01);
    EXPECT_EQ(after.rating, 1500.0);
}

TEST(Glicko2, IdleDaysBeforeAGameWidenItsEffect) {
    const Rating settled{1700.0, 60.0, 0.06};
    const Rating opponent{1700.0, 60.0, 0.06};
    const auto fresh = glicko2::rate_game(settled, 0.0, opponent, 0.0, 1.0);
    const auto rusty = glicko2::rate_game(settled, 200.0, opponent, 0.0, 1.0);
    EXPECT_GT(rusty.first.rating, fresh.first.rating);
    EXPECT_GT(rusty.first.rd, fresh.first.rd);
    // The opponent saw a less certain player, so its own loss weighs less.
    EXPECT_GT(rusty.second.rating, fresh.second.rating);
}

TEST(Glicko2, ProvisionalAboveRd110) {
    EXPECT_TRUE(glicko2::provisional({1500.0, 110.01, 0.06}));
    EXPECT_FALSE(glicko2::provisional({1500.0, 110.0, 0.06}));
}

}  // namespace
