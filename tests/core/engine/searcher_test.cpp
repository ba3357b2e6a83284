// The search (core/engine/searcher*.h) through choose_move: it finds forced wins in one and two
// moves in both games, reports them as mates, and sees its own forced loss. Every position's
// forced win is first confirmed by a brute-force search through core::Game.
#include "core/engine/searcher.h"

#include <gtest/gtest.h>

#include "core/engine/engine.h"
#include "engine_test_support.h"

namespace {

using core::VariantId;
using core::engine::choose_move;
using core::engine::SearchLimits;
using engine_test::game_of;
using engine_test::wins_within;

struct MatePosition {
    VariantId variant;
    const char* fen;
    int moves;  // the side to move wins in this many moves, not fewer
};

// Found by random play and checked by brute force (below) in every run.
const MatePosition mates[] = {
    {VariantId::chessence, "km1m1m/3m1*/4*m/2*1mM/1*m1*1/3*2/M*Mm2/*M4/M1M1MK[m] b 2 20", 1},
    {VariantId::chessence, "km1m1m/5*/1m2*1/1M*3/1*1m*M/1M1*M1/1*1M2/*M1M1M/M4K[] w 5 38", 1},
    {VariantId::chessence, "k5/4m*/m3*m/1m*3/1*M1*1/mmm*2/M*M3/*2M1M/M1M2K[] b 15 30", 1},
    {VariantId::chessence, "km2mm/m4*/3m*M/1m*3/M*2*M/1mm*2/m*4/*MMM2/M3MK[] b 7 26", 2},
    {VariantId::chessence, "km1m2/m1m1M*/3m*1/m1*3/1*1m*1/1M1*2/M*3M/*5/1MM2K[] w 0 30", 2},
    {VariantId::chesica, "8/4+B3/2+R1Q3/8/1B4R1/8/8/+R5+b1 w 16 51", 1},
    {VariantId::chesica, "5+rq1/8/8/6+Br/2r5/4q3/8/8 b 3 47", 1},
    {VariantId::chesica, "5+B2/2RR4/7b/2Q5/1B2q3/4Q2R/2Q5/8 w 7 33", 2},
    {VariantId::chesica, "3+b4/1+R6/4Q3/1+R6/1B4R1/8/8/8 w 4 56", 2},
};

SearchLimits depth_limit(int depth) {
    SearchLimits limits;
    limits.max_depth = depth;
    limits.max_nodes = 5'000'000;
    return limits;
}

TEST(Searcher, PositionsAreForcedWinsInExactlyTheirMoves) {
    for (const auto& mate : mates) {
        const auto game = game_of(mate.variant, mate.fen);
        EXPECT_TRUE(wins_within(*game, mate.moves)) << mate.fen;
        if (mate.moves > 1) {
            EXPECT_FALSE(wins_within(*game, mate.moves - 1)) << mate.fen;
        }
    }
}

TEST(Searcher, FindsMateInOneAndTwo) {
    for (const auto& mate : mates) {
        const auto game = game_of(mate.variant, mate.fen);
        const auto result = choose_move(*game, 8, depth_limit(2 * mate.moves + 1), 1);
        ASSERT_TRUE(result.ok()) << mate.fen;
        ASSERT_TRUE(result->mate_in.has_value()) << mate.fen;
        EXPECT_EQ(*result->mate_in, mate.moves) << mate.fen;
        auto after = game->clone();
        ASSERT_TRUE(after->play(result->best_move).ok()) << mate.fen;
        if (mate.moves == 1) {
            ASSERT_TRUE(after->outcome().has_value()) << mate.fen << " " << result->best_move;
            EXPECT_EQ(after->outcome()->winner, game->to_move()) << mate.fen;
            continue;
        }
        // Every defence loses in one more move, and the defender's own search knows it.
        ASSERT_FALSE(after->outcome().has_value());
        for (const auto& reply : after->legal_moves()) {
            auto next = after->clone();
            ASSERT_TRUE(next->play(reply).ok());
            EXPECT_TRUE(next->outcome() || wins_within(*next, 1)) << mate.fen << " " << reply;
        }
        const auto defence = choose_move(*after, 8, depth_limit(4), 1);
        ASSERT_TRUE(defence.ok());
        ASSERT_TRUE(defence->mate_in.has_value()) << mate.fen;
        EXPECT_EQ(*defence->mate_in, -1) << mate.fen;
    }
}

TEST(Searcher, PrincipalVariationIsAPlayableLine) {
    for (const auto& mate : mates) {
        const auto game = game_of(mate.variant, mate.fen);
        const auto result = choose_move(*game, 8, depth_limit(6), 3);
        ASSERT_TRUE(result.ok());
        ASSERT_FALSE(result->pv.empty());
        EXPECT_EQ(result->pv.front(), result->best_move);
        auto line = game->clone();
        for (const auto& move : result->pv) {
            ASSERT_TRUE(line->play(move).ok()) << mate.fen << ": " << move;
        }
    }
}

}  // namespace
