#include "server/tournament/arena_scoring.h"

#include <gtest/gtest.h>

#include <vector>

namespace arena_scoring_test {

using core::VariantId;
using server::tournament::GameScore;
using server::tournament::Outcome;
using server::tournament::performance;
using server::tournament::score_sheet;
using server::tournament::ScoreFlag;
using server::tournament::SheetGame;

SheetGame win(int plies = 30, bool berserk = false) {
    return SheetGame{Outcome::win, plies, berserk, 1500};
}
SheetGame draw(int plies = 30, bool berserk = false) {
    return SheetGame{Outcome::draw, plies, berserk, 1500};
}
SheetGame loss(int plies = 30, bool berserk = false) {
    return SheetGame{Outcome::loss, plies, berserk, 1500};
}

std::vector<int> points(const std::vector<SheetGame>& sheet,
                        VariantId variant = VariantId::chessence) {
    std::vector<int> out;
    for (const GameScore& g : score_sheet(sheet, variant).games) {
        out.push_back(g.points);
    }
    return out;
}

TEST(ArenaScoring, WinDrawLossScoreTwoOneZero) {
    const auto score = score_sheet({win(), draw(), loss()}, VariantId::chessence);
    EXPECT_EQ(points({win(), draw(), loss()}), (std::vector<int>{2, 1, 0}));
    EXPECT_EQ(score.total, 3);
    EXPECT_FALSE(score.on_fire);
}

TEST(ArenaScoring, TwoWinsInARowSetAPlayerOnFireUntilAGameIsNotWon) {
    EXPECT_EQ(points({win(), win(), win(), win(), draw(), win()}),
              (std::vector<int>{2, 2, 4, 4, 2, 2}));
    EXPECT_EQ(points({win(), win(), loss(), win(), win(), win()}),
              (std::vector<int>{2, 2, 0, 2, 2, 4}));
    const auto score = score_sheet({win(), win(), win()}, VariantId::chessence);
    EXPECT_EQ(score.games[2].flag, ScoreFlag::on_fire);
    EXPECT_EQ(score.games[1].flag, ScoreFlag::normal);
    EXPECT_TRUE(score.on_fire);
    EXPECT_EQ(score.total, 8);
    EXPECT_FALSE(score_sheet({win(), win(), loss()}, VariantId::chessence).on_fire);
}

TEST(ArenaScoring, ADrawBeforePlyTwentyScoresNothingEvenOnFire) {
    EXPECT_EQ(points({draw(19)}), (std::vector<int>{0}));
    EXPECT_EQ(points({draw(20)}), (std::vector<int>{1}));
    EXPECT_EQ(score_sheet({draw(5)}, VariantId::chessence).games[0].flag, ScoreFlag::quick_draw);
    // On fire, the quick draw scores 0 and puts the fire out.
    EXPECT_EQ(points({win(), win(), draw(10), win()}), (std::vector<int>{2, 2, 0, 2}));
}

TEST(ArenaScoring, OnlyAWinEndsADrawStreak) {
    // draw 1; draw (streak) 0; loss; draw (still the streak: a loss does not end it) 0; win;
    // draw 1 again.
    EXPECT_EQ(points({draw(), draw(), loss(), draw(), win(), draw()}),
              (std::vector<int>{1, 0, 0, 0, 2, 1}));
    const auto score = score_sheet({draw(), draw()}, VariantId::chessence);
    EXPECT_EQ(score.games[1].flag, ScoreFlag::draw_streak);
    // A quick draw is a draw of the streak too.
    EXPECT_EQ(points({draw(10), draw(30)}), (std::vector<int>{0, 0}));
}

TEST(ArenaScoring, ALongDrawScoresInsideADrawStreak) {
    // Chessence: long from 60 plies.
    EXPECT_EQ(points({draw(), draw(60)}, VariantId::chessence), (std::vector<int>{1, 1}));
    EXPECT_EQ(points({draw(), draw(59)}, VariantId::chessence), (std::vector<int>{1, 0}));
    // Chesica: long from 40 plies.
    EXPECT_EQ(points({draw(), draw(40)}, VariantId::chesica), (std::vector<int>{1, 1}));
    EXPECT_EQ(points({draw(), draw(39)}, VariantId::chesica), (std::vector<int>{1, 0}));
    // Sniderman: no draw is long.
    EXPECT_EQ(points({draw(), draw(500)}, VariantId::sniderman), (std::vector<int>{1, 0}));
    // A long draw still belongs to the streak: the short draw after it scores 0.
    EXPECT_EQ(points({draw(70), draw(30)}, VariantId::chessence), (std::vector<int>{1, 0}));
}

TEST(ArenaScoring, ABerserkWinOfFourteenPliesScoresOneMore) {
    EXPECT_EQ(points({win(14, true)}), (std::vector<int>{3}));
    EXPECT_EQ(points({win(13, true)}), (std::vector<int>{2}));
    EXPECT_EQ(points({draw(30, true), loss(30, true)}), (std::vector<int>{1, 0}));
    EXPECT_EQ(points({win(), win(), win(20, true)}), (std::vector<int>{2, 2, 5}));
    const auto score = score_sheet({win(14, true), win(13, true)}, VariantId::chessence);
    EXPECT_TRUE(score.games[0].berserk_bonus);
    EXPECT_FALSE(score.games[1].berserk_bonus);
    EXPECT_EQ(score.total, 5);
}

TEST(ArenaPerformance, IsTheMeanOfOpponentRatingPlusOrMinusFiveHundred) {
    EXPECT_FALSE(performance({}).has_value());
    const std::vector<SheetGame> sheet = {{Outcome::win, 30, false, 1500},
                                          {Outcome::loss, 30, false, 1700},
                                          {Outcome::draw, 30, false, 1600}};
    // (2000 + 1200 + 1600) / 3
    EXPECT_EQ(performance(sheet), 1600);
    // (2000 + 1501) / 2 = 1750.5, rounded up.
    EXPECT_EQ(performance({{Outcome::win, 30, false, 1500}, {Outcome::draw, 30, false, 1501}}),
              1751);
    // (0 − 500 + 300 − 500) / 2 = −350: below zero too.
    EXPECT_EQ(performance({{Outcome::loss, 30, false, 0}, {Outcome::loss, 30, false, 300}}), -350);
    // (−500 + 100) / 3 ≈ −133.3.
    EXPECT_EQ(performance({{Outcome::loss, 30, false, 0},
                           {Outcome::draw, 30, false, 0},
                           {Outcome::draw, 30, false, 100}}),
              -133);
}

}  // namespace arena_scoring_test
