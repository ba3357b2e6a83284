#include "core/chesica/position.h"

#include <gtest/gtest.h>

#include <bit>

using namespace core::chesica;

TEST(ChesicaPosition, StartHasTwelvePiecesASide) {
    const Position p = start_position();
    EXPECT_EQ(std::popcount(p.pieces(core::Side::first)), 12);
    EXPECT_EQ(std::popcount(p.pieces(core::Side::second)), 12);
    EXPECT_EQ(p.promoted, 0u);
    EXPECT_EQ(p.piece_on(make_square(0, 0)), (Piece{core::Side::first, Kind::queen, false}));
    EXPECT_EQ(p.piece_on(make_square(1, 1)), (Piece{core::Side::first, Kind::rook, false}));
    EXPECT_EQ(p.piece_on(make_square(6, 2)), (Piece{core::Side::first, Kind::bishop, false}));
    EXPECT_EQ(p.piece_on(make_square(7, 5)), (Piece{core::Side::second, Kind::bishop, false}));
    EXPECT_EQ(p.piece_on(make_square(4, 6)), (Piece{core::Side::second, Kind::rook, false}));
    EXPECT_EQ(p.piece_on(make_square(3, 7)), (Piece{core::Side::second, Kind::queen, false}));
    EXPECT_FALSE(p.piece_on(make_square(1, 0)).has_value());
    EXPECT_EQ(p.to_move, core::Side::first);
}

TEST(ChesicaPosition, SamePlacementComparesMarksAndSideButNotCounters) {
    Position a = start_position();
    Position b = a;
    b.plies_without_capture = 40;
    b.move_number = 9;
    EXPECT_TRUE(a.same_placement(b));
    b.to_move = core::Side::second;
    EXPECT_FALSE(a.same_placement(b));
    Position c = a;
    c.promoted |= square_bb(make_square(0, 0));
    EXPECT_FALSE(a.same_placement(c));
}

TEST(ChesicaPosition, QueensHaveBothPowers) {
    const Position p = start_position();
    const Bitboard queens = p.by_kind[static_cast<int>(Kind::queen)];
    EXPECT_EQ(p.bishop_like() & queens, queens);
    EXPECT_EQ(p.rook_like() & queens, queens);
    EXPECT_EQ(p.bishop_like() & p.by_kind[static_cast<int>(Kind::rook)], 0u);
}
