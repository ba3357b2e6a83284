#include "core/chessence/slides.h"

#include <gtest/gtest.h>

#include "chessence_test_support.h"
#include "core/chessence/playout.h"

namespace {

using namespace chessence_test;

TEST(ChessenceSlides, SlideStopsAtAndIncludesTheFirstOccupiedSquare) {
    const Square c1 = make_square(2, 0);
    const Bitboard occupied = bit(make_square(2, 3)) | bit(make_square(4, 0));
    // North: c2 c3, then c4 occupied; east: d1, then e1 occupied; west: b1 a1.
    EXPECT_EQ(rook_slides(c1, occupied), bit(make_square(2, 1)) | bit(make_square(2, 2)) |
                                             bit(make_square(2, 3)) | bit(make_square(3, 0)) |
                                             bit(make_square(4, 0)) | bit(make_square(1, 0)) |
                                             bit(make_square(0, 0)));
    // North-west: b2, then a3; north-east: d2 e3 f4.
    EXPECT_EQ(bishop_slides(c1, 0), bit(make_square(1, 1)) | bit(make_square(0, 2)) |
                                        bit(make_square(3, 1)) | bit(make_square(4, 2)) |
                                        bit(make_square(5, 3)));
}

TEST(ChessenceSlides, SetSlidesCountEveryMoveOfEveryMan) {
    Rng rng(11);
    for (int game = 0; game < 30; ++game) {
        Position p = start_position();
        for (int ply = 0; ply < 100; ++ply) {
            const Bitboard own = p.own_men();
            const Bitboard enemy = p.enemy_men();
            const Bitboard occupied = p.occupied();
            const Bitboard empty = existing_squares & ~occupied;
            int per_man = 0;
            for (Bitboard men = own; men != 0;) {
                const Square s = pop_lowest(men);
                per_man += count((rook_slides(s, occupied) | bishop_slides(s, occupied)) &
                                 (empty | enemy));
            }
            const int at_once = count(slide_set<north>(own, empty, enemy)) +
                                count(slide_set<east>(own, empty, enemy)) +
                                count(slide_set<south>(own, empty, enemy)) +
                                count(slide_set<west>(own, empty, enemy)) +
                                count(slide_set<north_east>(own, empty, enemy)) +
                                count(slide_set<north_west>(own, empty, enemy)) +
                                count(slide_set<south_east>(own, empty, enemy)) +
                                count(slide_set<south_west>(own, empty, enemy));
            ASSERT_EQ(at_once, per_man) << position_string(p);
            MoveList list;
            generate_legal(p, list);
            if (list.empty()) {
                break;
            }
            make_move(p,
                      list[static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())))]);
        }
    }
}

}  // namespace
