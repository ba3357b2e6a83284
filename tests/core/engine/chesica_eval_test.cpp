// The Chesica evaluation (core/engine/chesica_eval.h): symmetric, from the mover's side, and its
// features read the position as documented.
#include "core/engine/chesica_eval.h"

#include <gtest/gtest.h>

#include "core/chesica/fen.h"

namespace {

using namespace core::chesica;
using core::engine::chesica_features;
using core::engine::chesica_weights;
using core::engine::ChesicaFeature;
using core::engine::evaluate_chesica;

Position parse(const std::string& fen) {
    return parse_fen(fen).value();
}

int feature(const Position& p, int side, ChesicaFeature f) {
    return chesica_features(p)[static_cast<std::size_t>(side)][static_cast<std::size_t>(f)];
}

TEST(ChesicaEval, StartPositionIsWorthTheTempo) {
    EXPECT_EQ(evaluate_chesica(start_position(), chesica_weights()), chesica_weights().tempo);
}

TEST(ChesicaEval, TheHalfTurnWithColoursSwappedKeepsTheScore) {
    // h8 <-> a1 with colours swapped: the same position for the other side.
    const Position p = parse("1q6/8/3b4/4+R3/2B5/8/1R6/Q7 w 0 1");
    const Position q = parse("7q/6r1/8/5b2/3+r4/4B3/8/6Q1 b 0 1");
    EXPECT_EQ(evaluate_chesica(p, chesica_weights()), evaluate_chesica(q, chesica_weights()));
}

TEST(ChesicaEval, FeaturesReadThePosition) {
    // White: Q a1 (on its back rank), R b2, B c4, promoted R e5. Black: B d6, Q b8 (on its back
    // rank).
    const Position p = parse("1q6/8/3b4/4+R3/2B5/8/1R6/Q7 w 0 1");
    EXPECT_EQ(feature(p, 0, ChesicaFeature::queens), 1);
    EXPECT_EQ(feature(p, 0, ChesicaFeature::rooks), 1);
    EXPECT_EQ(feature(p, 0, ChesicaFeature::bishops), 1);
    EXPECT_EQ(feature(p, 0, ChesicaFeature::promoted_rooks), 1);
    EXPECT_EQ(feature(p, 1, ChesicaFeature::bishops), 1);
    EXPECT_EQ(feature(p, 1, ChesicaFeature::queens), 1);
    EXPECT_EQ(feature(p, 0, ChesicaFeature::advancement), 0 + 1 + 3);  // a1, b2, c4
    EXPECT_EQ(feature(p, 1, ChesicaFeature::advancement), 0 + 2);      // b8, d6
    EXPECT_EQ(feature(p, 0, ChesicaFeature::back_rank), 1);
    EXPECT_EQ(feature(p, 1, ChesicaFeature::back_rank), 1);
    EXPECT_EQ(feature(p, 0, ChesicaFeature::near_promotion), 0);
    // The promoted rook on e5 could jump d6 (onto c7), and the bishop on d6 could jump e5 (onto
    // f4, forward for Black); nothing else can be jumped.
    EXPECT_EQ(feature(p, 1, ChesicaFeature::hanging), 1);
    EXPECT_EQ(feature(p, 0, ChesicaFeature::hanging), 1);
}

TEST(ChesicaEval, MaterialAheadScoresForTheSideThatHasIt) {
    const Position white = parse("8/8/8/8/8/8/1R6/Q1Q5 w 0 1");
    Position black = white;
    black.to_move = core::Side::second;
    EXPECT_GT(evaluate_chesica(white, chesica_weights()), 0);
    EXPECT_LT(evaluate_chesica(black, chesica_weights()), 0);
}

}  // namespace
