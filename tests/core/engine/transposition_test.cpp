// The transposition table (core/engine/transposition.h) and the mate-score conversions it needs
// (core/engine/score.h).
#include "core/engine/transposition.h"

#include <gtest/gtest.h>

#include "core/engine/score.h"

namespace {

using core::engine::Bound;
using core::engine::TranspositionTable;

TEST(TranspositionTable, GivesBackWhatWasStored) {
    TranspositionTable table(1);
    table.store(0x123456789ABCDEF0ULL, 77, -45, 6, Bound::lower);
    const auto hit = table.probe(0x123456789ABCDEF0ULL);
    ASSERT_TRUE(hit.found);
    EXPECT_EQ(hit.move, 77u);
    EXPECT_EQ(hit.score, -45);
    EXPECT_EQ(hit.depth, 6);
    EXPECT_EQ(hit.bound, Bound::lower);
    EXPECT_FALSE(table.probe(0x0FEDCBA987654321ULL).found);
}

TEST(TranspositionTable, ClearForgetsEverything) {
    TranspositionTable table(1);
    table.store(42ULL << 32 | 7, 1, 0, 1, Bound::exact);
    table.clear();
    EXPECT_FALSE(table.probe(42ULL << 32 | 7).found);
}

TEST(TranspositionTable, KeepsTheBestMoveWhenAnUpdateHasNone) {
    TranspositionTable table(1);
    const std::uint64_t key = 0xABCDEF01ULL << 32 | 5;
    table.store(key, 9, 10, 3, Bound::exact);
    table.store(key, 0, 20, 4, Bound::upper);
    const auto hit = table.probe(key);
    EXPECT_EQ(hit.move, 9u);
    EXPECT_EQ(hit.depth, 4);
}

TEST(TranspositionTable, ABucketHoldsFourPositionsAndThenReplacesTheShallowest) {
    TranspositionTable table(1);
    // Same bucket (same low bits), different positions (upper halves).
    for (std::uint64_t i = 1; i <= 4; ++i) {
        table.store(i << 32 | 3, static_cast<std::uint32_t>(i), 0, static_cast<int>(i),
                    Bound::exact);
    }
    for (std::uint64_t i = 1; i <= 4; ++i) {
        EXPECT_TRUE(table.probe(i << 32 | 3).found) << i;
    }
    table.store(std::uint64_t{9} << 32 | 3, 9, 0, 9, Bound::exact);
    EXPECT_FALSE(table.probe(std::uint64_t{1} << 32 | 3).found);  // depth 1 made room
    EXPECT_TRUE(table.probe(std::uint64_t{9} << 32 | 3).found);
}

TEST(TranspositionTable, SizeFollowsTheMegabytesAsked) {
    EXPECT_EQ(TranspositionTable(1).megabytes(), 1u);
    EXPECT_EQ(TranspositionTable(16).megabytes(), 16u);
    EXPECT_EQ(TranspositionTable(20).megabytes(), 16u);  // a power of two of buckets
}

TEST(Score, MateScoresAreStoredRelativeToTheNode) {
    using namespace core::engine;
    const int mate_in_3_plies_from_root = mate_score - 3;
    const int stored = score_to_table(mate_in_3_plies_from_root, 2);
    EXPECT_EQ(stored, mate_score - 1);  // one ply from the node at ply 2
    EXPECT_EQ(score_from_table(stored, 2), mate_in_3_plies_from_root);
    EXPECT_EQ(score_from_table(score_to_table(mated_in(5), 1), 1), mated_in(5));
    EXPECT_EQ(score_to_table(123, 7), 123);
}

TEST(Score, MatesCountMovesNotPlies) {
    using namespace core::engine;
    EXPECT_EQ(mate_in_moves(mate_score - 1), 1);  // win after our move
    EXPECT_EQ(mate_in_moves(mate_score - 3), 2);  // win after our second move
    EXPECT_EQ(mate_in_moves(mated_in(2)), -1);    // we are left without a move after one reply
    EXPECT_EQ(mate_in_moves(mated_in(4)), -2);
    EXPECT_EQ(mate_in_moves(250), 0);
}

}  // namespace
