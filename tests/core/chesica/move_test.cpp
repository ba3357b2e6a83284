#include "core/chesica/move.h"

#include <gtest/gtest.h>

#include "core/chesica/fen.h"

using namespace core::chesica;

namespace {
constexpr Square sq(const char* name) {
    return make_square(name[0] - 'a', name[1] - '1');
}

Move step(const char* from, const char* to, MoveType type, Bitboard captured = 0) {
    return Move{
        captured, static_cast<std::uint8_t>(sq(from)), static_cast<std::uint8_t>(sq(to)), type, 0,
        {}};
}
}  // namespace

TEST(ChesicaMakeMove, StepAdvancesCountersAndTurn) {
    Position p = *parse_fen("8/8/8/8/8/2B5/8/7q w 5 7");
    make_move(p, step("c3", "d4", MoveType::step));
    EXPECT_EQ(to_fen(p), "8/8/8/8/3B4/8/8/7q b 6 7");
    EXPECT_EQ(p.reversible_plies, 0);  // an unpromoted advance
    make_move(p, step("h1", "g1", MoveType::step));
    EXPECT_EQ(to_fen(p), "8/8/8/8/3B4/8/8/6+q1 w 7 8");  // sideways on its far rank: promoted
    EXPECT_EQ(p.reversible_plies, 0);
}

TEST(ChesicaMakeMove, ReplacementCaptureRemovesTheTarget) {
    Position p = *parse_fen("8/8/8/8/3+r4/2B5/8/7q w 5 7");
    make_move(p, step("c3", "d4", MoveType::capture, square_bb(sq("d4"))));
    EXPECT_EQ(to_fen(p), "8/8/8/8/3B4/8/8/7q b 0 7");
}

TEST(ChesicaMakeMove, PromotedPieceMovesAreReversible) {
    Position p = *parse_fen("7+r/8/8/8/8/8/8/+R6R w 0 1");
    make_move(p, step("a1", "a5", MoveType::step));
    EXPECT_EQ(p.reversible_plies, 1);
    make_move(p, step("h8", "g7", MoveType::step));
    EXPECT_EQ(p.reversible_plies, 2);
    make_move(p, step("h1", "g1", MoveType::step));  // unpromoted sideways: still reversible
    EXPECT_EQ(p.reversible_plies, 3);
    EXPECT_EQ(to_fen(p), "8/6+r1/8/+R7/8/8/8/6R1 b 3 2");
}

TEST(ChesicaMakeMove, ChainMayEndOnItsStartSquare) {
    Position p = *parse_fen("8/8/1r1r4/8/1r1r4/2+R5/8/7q w 0 1");
    Move m{square_bb(sq("b4")) | square_bb(sq("b6")) | square_bb(sq("d6")) | square_bb(sq("d4")),
           static_cast<std::uint8_t>(sq("c3")),
           static_cast<std::uint8_t>(sq("c3")),
           MoveType::jump,
           4,
           {}};
    make_move(p, m);
    EXPECT_EQ(to_fen(p), "8/8/8/8/8/2+R5/8/7q b 0 1");
}
