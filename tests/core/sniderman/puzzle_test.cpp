#include "core/sniderman/puzzle.h"

#include <gtest/gtest.h>

namespace core::sniderman {
namespace {

TEST(SnidermanPuzzle, HasExactlyOneWinningFirstMoveByBruteForce) {
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
        const Puzzle puzzle = make_puzzle(seed);
        const bool odd_moves = puzzle.position.odd_to_move();
        int winning = 0;
        bool answer_wins = false;
        for (const Move m : generate_captures(puzzle.position)) {
            CaptureHistory h = puzzle.history;
            h.record(m, puzzle.position.at(m.to), puzzle.position.ply);
            if (brute_force_odd_wins(make_move(puzzle.position, m), h, puzzle.object) ==
                odd_moves) {
                ++winning;
                answer_wins = answer_wins || m == puzzle.answer;
            }
        }
        EXPECT_EQ(winning, 1) << format_position(puzzle.position);
        EXPECT_TRUE(answer_wins) << move_name(puzzle.answer);
    }
}

TEST(SnidermanPuzzle, IsAPositionOfARealRoundAndReproducible) {
    for (std::uint64_t seed = 10; seed < 20; ++seed) {
        const Puzzle puzzle = make_puzzle(seed);
        EXPECT_EQ(puzzle.start.piece_count(), 16);
        Position p = puzzle.start;
        CaptureHistory h;
        for (const Move m : puzzle.moves) {
            ASSERT_TRUE(parse_legal_move(p, move_name(m)).ok());
            h.record(m, p.at(m.to), p.ply);
            p = make_move(p, m);
        }
        EXPECT_EQ(p, puzzle.position);
        EXPECT_EQ(h, puzzle.history);
        EXPECT_GE(puzzle.moves.size(), 5u);
        EXPECT_LE(puzzle.moves.size(), 7u);
        const Puzzle again = make_puzzle(seed);
        EXPECT_EQ(again.position, puzzle.position);
        EXPECT_EQ(again.object, puzzle.object);
        EXPECT_EQ(again.answer, puzzle.answer);
    }
}

}  // namespace
}  // namespace core::sniderman
