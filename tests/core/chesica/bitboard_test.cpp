#include "core/chesica/bitboard.h"

#include <gtest/gtest.h>

using namespace core::chesica;

namespace {
constexpr Square sq(const char* name) {
    return make_square(name[0] - 'a', name[1] - '1');
}
constexpr int dir(Direction d) {
    return static_cast<int>(d);
}
}  // namespace

TEST(ChesicaBitboard, NeighboursStopAtTheEdges) {
    EXPECT_EQ(neighbour[sq("a1")][dir(Direction::ne)], sq("b2"));
    EXPECT_EQ(neighbour[sq("a1")][dir(Direction::nw)], no_square);
    EXPECT_EQ(neighbour[sq("h4")][dir(Direction::e)], no_square);
    EXPECT_EQ(neighbour[sq("h4")][dir(Direction::w)], sq("g4"));
    EXPECT_EQ(neighbour[sq("d8")][dir(Direction::n)], no_square);
}

TEST(ChesicaBitboard, JumpLandingIsTwoStepsAway) {
    EXPECT_EQ(jump_landing[sq("c3")][dir(Direction::ne)], sq("e5"));
    EXPECT_EQ(jump_landing[sq("c3")][dir(Direction::sw)], sq("a1"));
    EXPECT_EQ(jump_landing[sq("b2")][dir(Direction::sw)], no_square);
    EXPECT_EQ(jump_landing[sq("g7")][dir(Direction::ne)], no_square);
}

TEST(ChesicaBitboard, SlidesStopOnTheFirstOccupiedSquare) {
    const Bitboard occupied = square_bb(sq("d6")) | square_bb(sq("f4"));
    EXPECT_EQ(slide_targets(sq("d4"), Direction::n, occupied),
              square_bb(sq("d5")) | square_bb(sq("d6")));
    EXPECT_EQ(slide_targets(sq("d4"), Direction::e, occupied),
              square_bb(sq("e4")) | square_bb(sq("f4")));
    EXPECT_EQ(slide_targets(sq("d4"), Direction::sw, occupied),
              square_bb(sq("c3")) | square_bb(sq("b2")) | square_bb(sq("a1")));
    EXPECT_EQ(slide_targets(sq("d4"), Direction::w, 0), ray[sq("d4")][dir(Direction::w)]);
}

TEST(ChesicaBitboard, ShiftsDoNotWrapAroundTheBoard) {
    EXPECT_EQ(shift(square_bb(sq("h3")), Direction::ne), 0u);
    EXPECT_EQ(shift(square_bb(sq("a3")), Direction::w), 0u);
    EXPECT_EQ(shift(square_bb(sq("a3")), Direction::nw), 0u);
    EXPECT_EQ(shift(square_bb(sq("a1")), Direction::s), 0u);
    EXPECT_EQ(shift(square_bb(sq("c3")), Direction::se), square_bb(sq("d2")));
    EXPECT_EQ(shift(square_bb(sq("c3")), Direction::e), square_bb(sq("d3")));
}
