#include "core/sniderman/solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>

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
    Solver solver(12);
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

// Minimax memoised on the position and the whole capture history (nothing summarised, nothing
// cut off early): an independent answer for positions too large for brute force.
class Reference {
public:
    explicit Reference(Object object) : object_(object) {}

    bool odd_wins(const Position& p, const CaptureHistory& h) {
        const MoveList moves = generate_captures(p);
        if (moves.size == 0) {
            return sniderman::odd_wins(object_, p, h);
        }
        const auto key = std::make_tuple(p.cells, p.ply % 2, h.captures, h.last, h.previous,
                                         h.last_square, h.previous_square, h.king_captured_by_even);
        if (const auto it = memo_.find(key); it != memo_.end()) {
            return it->second;
        }
        const bool odd_moves = p.odd_to_move();
        bool result = !odd_moves;
        for (const Move m : moves) {
            CaptureHistory next = h;
            next.record(m, p.at(m.to), p.ply);
            if (odd_wins(make_move(p, m), next) == odd_moves) {
                result = odd_moves;
                break;
            }
        }
        memo_.emplace(key, result);
        return result;
    }

private:
    Object object_;
    std::map<std::tuple<std::uint64_t, int, int, int, int, int, int, bool>, bool> memo_;
};

TEST(SnidermanSolver, AgreesWithMemoisedMinimaxOnLargerPositions) {
    // Rounds with 11 and 12 pieces left, where the table, its summaries, the cutoffs and the
    // early decision of object 4 all come into play.
    Solver solver(14);
    int winning_moves = 0;
    for (std::uint64_t seed = 100; seed < 104; ++seed) {
        const Midround r = random_midround(seed, 4 + static_cast<int>(seed % 2));
        ASSERT_TRUE(has_capture(r.position));
        for (int n = 1; n <= object_count; ++n) {
            const Object object = *to_object(n);
            Reference reference(object);
            const Solution s = solver.solve(r.position, r.history, object);
            ASSERT_EQ(s.odd_wins, reference.odd_wins(r.position, r.history))
                << format_position(r.position) << " object " << n;
            const bool odd_moves = r.position.odd_to_move();
            std::vector<Move> winning;
            for (const Move m : generate_captures(r.position)) {
                CaptureHistory h = r.history;
                h.record(m, r.position.at(m.to), r.position.ply);
                if (reference.odd_wins(make_move(r.position, m), h) == odd_moves) {
                    winning.push_back(m);
                }
            }
            std::sort(winning.begin(), winning.end(), notation_less);
            EXPECT_EQ(s.winning_moves, winning) << format_position(r.position) << " object " << n;
            winning_moves += static_cast<int>(winning.size());
        }
    }
    EXPECT_GT(winning_moves, 0);
}

TEST(SnidermanSolver, StopsAfterTheAskedNumberOfWinningMoves) {
    const Midround r = random_midround(7, 6);
    Solver solver(12);
    for (int n = 1; n <= object_count; ++n) {
        const Object object = *to_object(n);
        const Solution all = solver.solve(r.position, r.history, object);
        const Solution two = solver.solve(r.position, r.history, object, 2);
        EXPECT_EQ(two.odd_wins, all.odd_wins) << n;
        EXPECT_EQ(two.winning_moves.size(), std::min<std::size_t>(2, all.winning_moves.size()))
            << n;
        for (const Move m : two.winning_moves) {
            EXPECT_NE(std::find(all.winning_moves.begin(), all.winning_moves.end(), m),
                      all.winning_moves.end())
                << n;
        }
    }
}

TEST(SnidermanSolver, ObjectFourIsSettledOnceItCannotChange) {
    // ODD to move. EVEN has already taken a king: ODD wins whatever happens, so every capture
    // wins. With no king left and none taken by EVEN, EVEN wins, so none does.
    const Position kings_gone = *parse_position("qR2/Nn2/4/Bb2 3");
    CaptureHistory even_took_king;
    even_took_king.record(Move{5, 6}, make_piece(Colour::black, Kind::king), 2);
    Solver solver(8);
    const Solution settled_odd =
        solver.solve(kings_gone, even_took_king, Object::king_captured_by_even);
    EXPECT_TRUE(settled_odd.odd_wins);
    EXPECT_EQ(settled_odd.winning_moves.size(),
              static_cast<std::size_t>(generate_captures(kings_gone).size));
    const Solution settled_even = solver.solve(kings_gone, {}, Object::king_captured_by_even);
    EXPECT_FALSE(settled_even.odd_wins);
    EXPECT_TRUE(settled_even.winning_moves.empty());
    // With a king still on the board nothing is settled: the solver searches, and agrees with
    // brute force.
    const Position king_left = *parse_position("qR2/Nn2/4/Kb2 1");
    EXPECT_EQ(solver.odd_wins(king_left, {}, Object::king_captured_by_even),
              brute_force_odd_wins(king_left, {}, Object::king_captured_by_even));
}

TEST(SnidermanSolver, EndedRoundIsDecidedByTheObject) {
    const Position frozen = *parse_position("K3/4/4/3N 1");
    Solver solver(6);
    const Solution one_colour = solver.solve(frozen, {}, Object::one_colour_left);
    EXPECT_TRUE(one_colour.odd_wins);
    EXPECT_TRUE(one_colour.winning_moves.empty());
    EXPECT_FALSE(solver.solve(frozen, {}, Object::last_captured_white).odd_wins);
}

TEST(SnidermanSolver, FindsTheOnlyWinningCapture) {
    // ODD to move; object 1 (last captured White). a1xb1 takes the black queen and ends the round
    // (EVEN wins); b1xa1 takes the white king and ends it (ODD wins).
    const Position p = *parse_position("4/4/4/Kq2 1");
    Solver solver(6);
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
    Solver solver(6);
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
