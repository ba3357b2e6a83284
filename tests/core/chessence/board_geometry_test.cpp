#include "core/chessence/board_geometry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "chessence_test_support.h"

namespace {

using namespace core::chessence;

TEST(ChessenceBoard, EightSquaresAreMissing) {
    std::set<std::string> missing;
    for (Square s = 0; s < square_count; ++s) {
        if (is_missing(s)) {
            missing.insert(square_name(s));
        }
    }
    EXPECT_EQ(missing, (std::set<std::string>{"a2", "b3", "b5", "c6", "d4", "e5", "e7", "f8"}));
    EXPECT_EQ(count(existing_squares), 46);
}

TEST(ChessenceBoard, BoardIsSymmetricUnderAHalfTurn) {
    for (Square s = 0; s < square_count; ++s) {
        EXPECT_EQ(is_missing(s), is_missing(square_count - 1 - s)) << square_name(s);
    }
    for (Square s = 0; s < square_count; ++s) {
        const Square turned = square_count - 1 - s;
        EXPECT_EQ((home_squares[0] >> s) & 1, (home_squares[1] >> turned) & 1) << square_name(s);
    }
}

TEST(ChessenceBoard, SquareIndexIsRankTimesSixPlusFile) {
    EXPECT_EQ(square_name(0), "a1");
    EXPECT_EQ(square_name(5), "f1");
    EXPECT_EQ(square_name(6), "a2");
    EXPECT_EQ(square_name(53), "f9");
    EXPECT_EQ(make_square(3, 2), 15);
}

TEST(ChessenceBoard, RaysStopBeforeMissingSquaresAndTheEdge) {
    // From b1 north: b2, then b3 is missing.
    EXPECT_EQ(rays[north][make_square(1, 0)], bit(make_square(1, 1)));
    // From a1 east: b1 .. f1.
    EXPECT_EQ(count(rays[east][make_square(0, 0)]), 5);
    // From a1 north: a2 is missing at once.
    EXPECT_EQ(rays[north][make_square(0, 0)], 0u);
    // From c3 north-east: d4 is missing at once.
    EXPECT_EQ(rays[north_east][make_square(2, 2)], 0u);
    // From f9 south-west: e8, d7, c6 missing.
    EXPECT_EQ(rays[south_west][make_square(5, 8)], bit(make_square(4, 7)) | bit(make_square(3, 6)));
}

TEST(ChessenceBoard, NoTableReachesAMissingSquareOrOffTheBoard) {
    for (Square s = 0; s < square_count; ++s) {
        EXPECT_EQ(knight_targets[s] & ~existing_squares, 0u) << square_name(s);
        for (int d = 0; d < direction_count; ++d) {
            EXPECT_EQ(rays[d][s] & ~existing_squares, 0u) << square_name(s) << " direction " << d;
        }
    }
}

TEST(ChessenceBoard, NeighbourTablesAreGeometric) {
    const Square c5 = make_square(2, 4);
    // b5 is missing but still a geometric neighbour; relations ignore whether squares exist.
    EXPECT_EQ(orthogonal_neighbours(bit(c5)), bit(make_square(1, 4)) | bit(make_square(3, 4)) |
                                                  bit(make_square(2, 3)) | bit(make_square(2, 5)));
    EXPECT_EQ(count(diagonal_neighbours(bit(c5))), 4);
    EXPECT_EQ(count(knight_neighbours(bit(c5))), 8);
    const Square a1 = make_square(0, 0);
    EXPECT_EQ(knight_neighbours(bit(a1)), bit(make_square(1, 2)) | bit(make_square(2, 1)));
    const Square f9 = make_square(5, 8);
    EXPECT_EQ(orthogonal_neighbours(bit(f9)), bit(make_square(4, 8)) | bit(make_square(5, 7)));
}

}  // namespace
