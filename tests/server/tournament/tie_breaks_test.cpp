// The tie-breaks on hand-computed tables.
#include "server/tournament/tie_breaks.h"

#include <gtest/gtest.h>

namespace server::tournament {
namespace {

TieBreakGame tb_game(const char* opponent, int half_points) {
    return {std::string(opponent), half_points};
}

// A four-player round robin: A beats B, C and draws D; B beats C and D; C beats D; D draws A.
//   A: 2 + 2 + 1 = 5 half points, B: 4, C: 2, D: 1.
//   SB(A) = B 4 × 2 + C 2 × 2 + D 1 × 1 = 13 quarters; SB(B) = C 2×2 + D 1×2 = 6;
//   SB(C) = D 1 × 2 = 2; SB(D) = A 5 × 1 = 5.
//   Buchholz(A) = 4 + 2 + 1 = 7; B = 5 + 2 + 1 = 8; C = 5 + 4 + 1 = 10; D = 5 + 4 + 2 = 11.
TEST(TieBreaks, AFourPlayerRoundRobinHandComputed) {
    const std::map<std::string, std::vector<TieBreakGame>> sheets = {
        {"A", {tb_game("B", 2), tb_game("C", 2), tb_game("D", 1)}},
        {"B", {tb_game("A", 0), tb_game("C", 2), tb_game("D", 2)}},
        {"C", {tb_game("A", 0), tb_game("B", 0), tb_game("D", 2)}},
        {"D", {tb_game("A", 1), tb_game("B", 0), tb_game("C", 0)}},
    };
    const auto t = tie_breaks(sheets);
    EXPECT_EQ(t.at("A"), (TieBreaks{5, 13, 7}));
    EXPECT_EQ(t.at("B"), (TieBreaks{4, 6, 8}));
    EXPECT_EQ(t.at("C"), (TieBreaks{2, 2, 10}));
    EXPECT_EQ(t.at("D"), (TieBreaks{1, 5, 11}));
}

// A bye scores its point but adds to no tie-break: P (a win and a bye) and Q (two wins, one of
// them over a player without a point) come out level on all three.
TEST(TieBreaks, AByeScoresItsPointButAddsToNoTieBreak) {
    const std::map<std::string, std::vector<TieBreakGame>> sheets = {
        {"P", {tb_game("S", 2), {std::nullopt, 2}}},  // beat the strong one, then a bye
        {"Q", {tb_game("W", 2), tb_game("S", 2)}},    // beat both
        {"S", {tb_game("P", 0), tb_game("Q", 0), tb_game("W", 2)}},
        {"W", {tb_game("Q", 0), tb_game("S", 0)}},
    };
    const auto t = tie_breaks(sheets);
    EXPECT_EQ(t.at("P"), (TieBreaks{4, 2 * 2, 2}));  // only S (2 half points) counts
    EXPECT_EQ(t.at("Q"), (TieBreaks{4, 0 * 2 + 2 * 2, 0 + 2}));
    EXPECT_EQ(t.at("S").half_points, 2);
    EXPECT_FALSE(ranks_above(t.at("P"), t.at("Q")));  // equal points, SB and Buchholz
    EXPECT_FALSE(ranks_above(t.at("Q"), t.at("P")));
    EXPECT_TRUE(ranks_above(t.at("P"), t.at("S")));
}

TEST(TieBreaks, SonnebornBergerDecidesBeforeBuchholz) {
    const TieBreaks more_sb{6, 20, 10};
    const TieBreaks more_buchholz{6, 18, 14};
    EXPECT_TRUE(ranks_above(more_sb, more_buchholz));
    EXPECT_FALSE(ranks_above(more_buchholz, more_sb));
    EXPECT_TRUE(ranks_above(TieBreaks{7, 0, 0}, more_sb));
}

TEST(TieBreaks, AnOpponentWithoutASheetCountsNothing) {
    const auto t = tie_breaks({{"A", {tb_game("gone", 2)}}});
    EXPECT_EQ(t.at("A"), (TieBreaks{2, 0, 0}));
    EXPECT_EQ(t.count("gone"), 0u);
}

}  // namespace
}  // namespace server::tournament
