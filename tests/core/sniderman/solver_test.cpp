#include "core/sniderman/solver.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/sniderman/deal.h"

namespace core::sniderman {
namespace {

struct Midround {
    Position position;
    CaptureHistory history;
};

// A dealt round after `captures` random captures (fewer if it ended earlier).
Midround random_midround(std::uint64_t seed, int captures) {
    Rng rng(seed);
    Midround r{deal(rng), {}};
    for (int i = 0; i < captures && has_capture(r.position); ++i) {
        const MoveList moves = generate_captures(r.position);
        const Move m = moves[static_cast<int>(rng.below(static_cast<std::uint64_t>(moves.size)))];
        r.history.record(m, r.position.at(m.to), r.position.ply);
        r.position = make_move(r.position, m);
    }
    return r;
}

TEST(SnidermanSolver, AgreesWithBruteForceOnSmallPositions) {
    Solver solver(16);
    int odd_results = 0;
    int checked = 0;
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
        const Midround r = random_midround(seed, 8 + static_cast<int>(seed % 2));
        for (int n = 1; n <= object_count; ++n) {
            const Object object = *to_object(n);
            const Solution s = solver.solve(r.position, r.history, object);
            const bool expected = brute_force_odd_wins(r.position, r.history, object);
            ASSERT_EQ(s.odd_wins, expected) << format_position(r.position) << " object " << n;
            EXPECT_EQ(solver.odd_wins(r.position, r.history, object), expected);
            // Every first move is classified as brute force classifies it.
            const bool odd_moves = r.position.odd_to_move();
            std::vector<Move> winning;
            for (const Move m : generate_captures(r.position)) {
                CaptureHistory h = r.history;
                h.record(m, r.position.at(m.to), r.position.ply);
                if (brute_force_odd_wins(make_move(r.position, m), h, object) == odd_moves) {
                    winning.push_back(m);
                }
            }
            std::sort(winning.begin(), winning.end(), notation_less);
            EXPECT_EQ(s.winning_moves, winning) << format_position(r.position) << " object " << n;
            EXPECT_EQ(s.winning_moves.empty(), s.odd_wins != odd_moves);
            odd_results += s.odd_wins ? 1 : 0;
            ++checked;
        }
    }
    // The sample has both results.
    EXPECT_GT(odd_results, 0);
    EXPECT_LT(odd_results, checked);
}

TEST(SnidermanSolver, EndedRoundIsDecidedByTheObject) {
    const Position frozen = *parse_position("K3/4/4/3N 1");
    Solver solver(10);
    const Solution one_colour = solver.solve(frozen, {}, Object::one_colour_left);
    EXPECT_TRUE(one_colour.odd_wins);
    EXPECT_TRUE(one_colour.winning_moves.empty());
    EXPECT_FALSE(solver.solve(frozen, {}, Object::last_captured_white).odd_wins);
}

TEST(SnidermanSolver, FindsTheOnlyWinningCapture) {
    // ODD to move; object 1 (last captured White). a1xb1 takes the black queen and ends the round
    // (EVEN wins); b1xa1 takes the white king and ends it (ODD wins).
    const Position p = *parse_position("4/4/4/Kq2 1");
    Solver solver(10);
    const Solution s = solver.solve(p, {}, Object::last_captured_white);
    EXPECT_TRUE(s.odd_wins);
    ASSERT_EQ(s.winning_moves.size(), 1u);
    EXPECT_EQ(move_name(s.winning_moves[0]), "b1xa1");
}

TEST(SnidermanSolver, HistoryBeforeThePositionCounts) {
    // EVEN to move with one capture left; object 4: it matters whether EVEN took a king earlier.
    const Position p = *parse_position("4/4/4/Rq2 2");
    CaptureHistory took_king;
    took_king.record(Move{5, 6}, make_piece(Colour::white, Kind::king), 2);
    Solver solver(10);
    EXPECT_TRUE(solver.solve(p, took_king, Object::king_captured_by_even).odd_wins);
    EXPECT_FALSE(solver.solve(p, {}, Object::king_captured_by_even).odd_wins);
}

TEST(SnidermanSolver, NotationOrder) {
    EXPECT_TRUE(notation_less(*parse_move("a4xb1"), *parse_move("b1xa1")));
    EXPECT_TRUE(notation_less(*parse_move("a1xb2"), *parse_move("a1xc1")));
    EXPECT_FALSE(notation_less(*parse_move("a2xa1"), *parse_move("a1xa2")));
}

}  // namespace
}  // namespace core::sniderman
