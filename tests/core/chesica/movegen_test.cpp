// One test per move rule of RULES.md §2 ("Pieces" and "Turn" rules 1-4), through the game's
// legal-move list (sorted, canonical notation).
#include "core/chesica/movegen.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/chesica/fen.h"
#include "core/chesica/legal.h"
#include "core/chesica/notation.h"
#include "core/chesica/perft.h"
#include "tests/core/chesica/chesica_test_helpers.h"

using chesica_test::contains;
using chesica_test::game_from;
using chesica_test::legal;
using chesica_test::Moves;

TEST(ChesicaMen, UnpromotedPieceStepsDiagonallyForwardToEmpty) {
    EXPECT_EQ(legal("8/8/8/8/8/2B5/8/7q w 0 1"), (Moves{"c3-b4", "c3-d4"}));
    EXPECT_EQ(legal("8/8/5b2/8/8/8/8/Q7 b 0 1"), (Moves{"f6-e5", "f6-g5"}));
}

TEST(ChesicaMen, UnpromotedPieceNeverMovesOrJumpsBackward) {
    // The Black rook on c3 stands behind the Bishop on d4, with b2 empty: no backward jump.
    EXPECT_EQ(legal("8/8/8/8/3B4/2r5/8/8 w 0 1"), (Moves{"d4-c5", "d4-e5"}));
}

TEST(ChesicaMen, ManJumpsForwardOverAdjacentEnemy) {
    EXPECT_EQ(legal("8/8/8/8/3r4/2B5/8/7q w 0 1"), (Moves{"c3xe5"}));
    EXPECT_EQ(legal("8/8/8/3b4/2R5/8/8/Q7 b 0 1"), (Moves{"d5xb3"}));
}

TEST(ChesicaMen, BishopCapturesDiagonallyForwardByReplacement) {
    // d4 can't be jumped (e5 is occupied), so the Bishop may take it by replacement; it has no
    // orthogonal capture (c4).
    EXPECT_EQ(legal("8/8/8/4r3/2rr4/2B5/8/8 w 0 1"), (Moves{"c3-b4", "c3xd4"}));
}

TEST(ChesicaMen, RookStepsForwardAndSidewaysToEmptyOrByReplacement) {
    EXPECT_EQ(legal("8/8/8/4r3/2rr4/2Rr4/8/8 w 0 1"), (Moves{"c3-b3", "c3-b4", "c3xc4", "c3xd3"}));
}

TEST(ChesicaMen, RookDiagonalStepDoesNotCapture) {
    const Moves moves = legal("8/8/8/4r3/2rr4/2R5/8/8 w 0 1");
    EXPECT_EQ(moves, (Moves{"c3-b3", "c3-b4", "c3-d3", "c3xc4"}));
    EXPECT_FALSE(contains(moves, "c3xd4"));
}

TEST(ChesicaMen, QueenMovesAsRookAndBishop) {
    EXPECT_EQ(legal("8/8/8/4r3/2rr4/2Q5/8/8 w 0 1"),
              (Moves{"c3-b3", "c3-b4", "c3-d3", "c3xc4", "c3xd4"}));
}

TEST(ChesicaPromoted, PromotedPieceStepsInAllFourDiagonals) {
    const Moves moves = legal("7b/8/8/8/3+R4/8/8/8 w 0 1");
    EXPECT_EQ(moves.size(), 18u);
    for (const char* step : {"d4-c3", "d4-c5", "d4-e3", "d4-e5"}) {
        EXPECT_TRUE(contains(moves, step)) << step;
    }
}

TEST(ChesicaPromoted, PromotedPieceJumpsBackward) {
    EXPECT_EQ(legal("7r/8/8/8/3+Q4/2b5/8/8 w 0 1"), (Moves{"d4xb2"}));
}

TEST(ChesicaPromoted, PromotedBishopSlidesDiagonallyWithReplacementCapture) {
    EXPECT_EQ(legal("8/6r1/8/8/3+B4/8/8/8 w 0 1"),
              (Moves{"d4-a1", "d4-a7", "d4-b2", "d4-b6", "d4-c3", "d4-c5", "d4-e3", "d4-e5",
                     "d4-f2", "d4-f6", "d4-g1", "d4xg7"}));
}

TEST(ChesicaPromoted, PromotedRookSlidesOrthogonally) {
    const Moves moves = legal("3r4/8/8/8/3+R4/8/8/8 w 0 1");
    EXPECT_EQ(moves, (Moves{"d4-a4", "d4-b4", "d4-c3", "d4-c4", "d4-c5", "d4-d1", "d4-d2", "d4-d3",
                            "d4-d5", "d4-d6", "d4-d7", "d4-e3", "d4-e4", "d4-e5", "d4-f4", "d4-g4",
                            "d4-h4", "d4xd8"}));
}

TEST(ChesicaPromoted, PromotedRookDiagonalStepDoesNotCapture) {
    // c5 can't be jumped (b6 is occupied) and the promoted Rook's diagonal step never captures.
    const Moves moves = legal("8/8/1r6/2r5/3+R4/8/8/8 w 0 1");
    EXPECT_FALSE(contains(moves, "d4xc5"));
    EXPECT_FALSE(contains(moves, "d4-c5"));
    EXPECT_TRUE(contains(moves, "d4-e5"));
    EXPECT_EQ(moves.size(), 17u);
}

TEST(ChesicaPromoted, PromotedQueenSlidesBothWays) {
    const Moves moves = legal("8/6r1/8/8/3+Q4/8/8/3r4 w 0 1");
    EXPECT_EQ(moves.size(), 26u);
    for (const char* move : {"d4xg7", "d4xd1", "d4-a7", "d4-h4", "d4-d8", "d4-g1"}) {
        EXPECT_TRUE(contains(moves, move)) << move;
    }
}

TEST(ChesicaJumps, JumpIsCompulsory) {
    EXPECT_EQ(legal("8/8/8/3bb3/3Q4/8/8/7q w 0 1"), (Moves{"d4xf6"}));
    auto game = game_from("8/8/8/3bb3/3Q4/8/8/7q w 0 1");
    const auto refused = game->play("d4xe5");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("compulsory"), std::string::npos) << refused.error();
}

TEST(ChesicaJumps, ReplacementCaptureIsNotCompulsory) {
    const Moves moves = legal("8/8/8/4r3/2rr4/2B5/8/8 w 0 1");
    EXPECT_TRUE(contains(moves, "c3-b4"));
    EXPECT_TRUE(contains(moves, "c3xd4"));
}

TEST(ChesicaJumps, FreeChoiceNoLongestChainRule) {
    // Same piece: a two-jump and a three-jump chain are both legal.
    EXPECT_EQ(legal("8/8/5r2/8/1r1r4/8/1r6/B7 w 0 1"), (Moves{"a1xc3xa5", "a1xc3xe5xg7"}));
    // Reference position of RULES.md §2: two continuations of the same length.
    EXPECT_EQ(legal("8/8/3b1b2/8/3b4/2B5/1r6/R7 w 0 1"), (Moves{"c3xe5xc7", "c3xe5xg7"}));
}

TEST(ChesicaJumps, ChainGoesOnWhileThePieceCanJump) {
    auto game = game_from("8/8/5r2/8/1r1r4/8/1r6/B7 w 0 1");
    const auto refused = game->play("a1xc3");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("must go on"), std::string::npos) << refused.error();
    EXPECT_TRUE(game->moves().empty());
}

TEST(ChesicaJumps, JumpedPieceRemovedAtOnce) {
    // The promoted Rook jumps around the four pieces and comes back to c3; d4 and b4 are gone
    // by then, so the chain ends there instead of jumping a piece twice.
    const std::string fen = "8/8/1r1r4/8/1r1r4/2+R5/8/7q w 0 1";
    EXPECT_EQ(legal(fen), (Moves{"c3xa5xc7xe5xc3", "c3xe5xc7xa5xc3"}));
    auto game = game_from(fen);
    ASSERT_TRUE(game->play("c3xe5xc7xa5xc3").ok());
    EXPECT_EQ(game->fen(), "8/8/8/8/8/2+R5/8/7q b 0 1");
}

TEST(ChesicaJumps, PromotionEndsTheChain) {
    auto game = game_from("8/2b1b3/1B6/8/8/8/8/q7 w 0 1");
    EXPECT_EQ(game->legal_moves(), (Moves{"b6xd8"}));
    ASSERT_TRUE(game->play("b6xd8").ok());
    EXPECT_EQ(game->fen(), "3+B4/4b3/8/8/8/8/8/q7 b 0 1");
}

TEST(ChesicaJumps, PromotedPieceOnFarRankKeepsJumping) {
    EXPECT_EQ(legal("8/2r1r3/1+R6/8/8/8/8/8 w 0 1"), (Moves{"b6xd8xf6"}));
}

TEST(ChesicaPromotion, UnpromotedPieceReachingFarRankByAnyMovePromotes) {
    auto step = game_from("8/1B6/8/8/8/8/8/7q w 0 1");
    ASSERT_TRUE(step->play("b7-c8").ok());
    EXPECT_EQ(step->board().squares[7 * 8 + 2], "+B");
    // An unpromoted Rook already on the far rank promotes by its sideways step.
    auto sideways = game_from("R7/8/8/8/8/8/8/7q w 0 1");
    ASSERT_TRUE(sideways->play("a8-b8").ok());
    EXPECT_EQ(sideways->fen(), "1+R6/8/8/8/8/8/8/7q b 1 1");
    // Black promotes on rank 1, here by a replacement capture.
    auto capture = game_from("8/8/8/8/8/8/6q1/7R b 0 1");
    ASSERT_TRUE(capture->play("g2xh1").ok());
    EXPECT_EQ(capture->fen(), "8/8/8/8/8/8/8/7+q w 0 2");
}

TEST(ChesicaMoveGeneration, CountMatchesGeneratedMoves) {
    for (const char* fen : {"1q1q1q1q/r1r1r1r1/1b1b1b1b/8/8/B1B1B1B1/1R1R1R1R/Q1Q1Q1Q1 w 0 1",
                            "8/8/1r1r4/8/1r1r4/2+R5/8/7q w 0 1", "8/6r1/8/8/3+Q4/8/8/3r4 w 0 1",
                            "8/8/8/4r3/2rr4/2Q5/8/8 w 0 1", "8/8/5b2/8/8/8/8/Q7 b 0 1"}) {
        const auto p = core::chesica::parse_fen(fen);
        ASSERT_TRUE(p.ok());
        core::chesica::MoveList list;
        core::chesica::generate_moves(*p, list);
        EXPECT_EQ(core::chesica::count_moves(*p), static_cast<std::uint64_t>(list.size())) << fen;
        EXPECT_EQ(core::chesica::jumpers(*p) != 0,
                  list.size() > 0 && list[0].type == core::chesica::MoveType::jump)
            << fen;
    }
}

TEST(ChesicaMoveGeneration, LandingSquaresIdentifyEveryMove) {
    // RULES.md names a chain by its landings only: in checkers geometry each landing fixes the
    // jumped piece, so no two moves of a position may name the same squares.
    int chains = 0;
    int promoted_moves = 0;
    for (const auto& p : chesica_test::random_game_positions(300)) {
        core::chesica::MoveList list;
        core::chesica::generate_moves(p, list);
        std::vector<std::vector<int>> named;
        for (const auto& m : list) {
            named.push_back(core::chesica::move_squares(m));
            chains += m.jumps > 1 ? 1 : 0;
            promoted_moves += (p.promoted & core::chesica::square_bb(m.from)) != 0 ? 1 : 0;
        }
        std::sort(named.begin(), named.end());
        EXPECT_EQ(std::adjacent_find(named.begin(), named.end()), named.end())
            << core::chesica::to_fen(p);
        EXPECT_EQ(core::chesica::count_moves(p), static_cast<std::uint64_t>(list.size()))
            << core::chesica::to_fen(p);
    }
    EXPECT_GT(chains, 0);  // the games did exercise multi-jump chains and promoted pieces
    EXPECT_GT(promoted_moves, 0);
}
