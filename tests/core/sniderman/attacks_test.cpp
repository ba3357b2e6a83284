#include "core/sniderman/attacks.h"

#include <gtest/gtest.h>

namespace core::sniderman {
namespace {

// The hashed tables give exactly what walking the rays gives, for every kind, square and board.
TEST(SnidermanAttacks, TablesAgreeWithRayWalkingOnEveryBoard) {
    int checked = 0;
    for (int kind = 1; kind <= 5; ++kind) {
        const Kind k = static_cast<Kind>(kind);
        for (Square s = 0; s < square_count; ++s) {
            for (unsigned occupied = 0; occupied < (1u << square_count); ++occupied) {
                if ((occupied & square_bit(s)) == 0) {
                    continue;  // the piece itself stands on s
                }
                const auto board = static_cast<Bitboard>(occupied);
                ASSERT_EQ(attack_table(k, s, board), attacks(k, s, board))
                    << "kind " << kind << " square " << square_name(s) << " board " << occupied;
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 5 * 16 * (1 << 15));
}

TEST(SnidermanAttacks, RayWalkingStopsAtTheFirstPiece) {
    // A rook on a1 with a piece on c1 and one on a3: b1, c1, a2 and a3.
    const Bitboard board = square_bit(0) | square_bit(2) | square_bit(8);
    EXPECT_EQ(attacks(Kind::rook, 0, board),
              square_bit(1) | square_bit(2) | square_bit(4) | square_bit(8));
    // A bishop on a1 on an empty board: b2, c3, d4.
    EXPECT_EQ(attacks(Kind::bishop, 0, square_bit(0)),
              square_bit(5) | square_bit(10) | square_bit(15));
    // A knight on b1: a3, c3, d2.
    EXPECT_EQ(attacks(Kind::knight, 1, square_bit(1)),
              square_bit(8) | square_bit(10) | square_bit(7));
}

}  // namespace
}  // namespace core::sniderman
