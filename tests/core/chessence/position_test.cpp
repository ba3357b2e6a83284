#include "core/chessence/position.h"

#include <gtest/gtest.h>

#include "chessence_test_support.h"
#include "core/chessence/playout.h"

namespace {

using namespace chessence_test;

TEST(ChessenceSetup, StartPositionMatchesTheRules) {
    const Position p = start_position();
    EXPECT_EQ(p.king[0], make_square(5, 0));  // f1
    EXPECT_EQ(p.king[1], make_square(0, 8));  // a9
    EXPECT_EQ(p.men[0], home_squares[0]);
    EXPECT_EQ(p.men[1], home_squares[1]);
    EXPECT_EQ(p.reserve[0], 3);
    EXPECT_EQ(p.reserve[1], 3);
    EXPECT_EQ(position_string(p), start_position_string);
}

TEST(ChessenceSetup, WhiteMovesFirst) {
    const Position p = start_position();
    EXPECT_EQ(p.side_to_move, Colour::white);
    for (const auto& name : legal_names(p)) {
        const Square from = make_square(name[0] - 'a', name[1] - '1');
        if (name[0] != '@') {
            EXPECT_NE(p.men[0] & bit(from), 0u) << name;
        }
    }
}

TEST(ChessencePosition, MakeMoveKeepsTheHashAndCounters) {
    Rng rng(7);
    Position p = start_position();
    for (int ply = 0; ply < 300; ++ply) {
        MoveList list;
        generate_legal(p, list);
        if (list.empty()) {
            break;
        }
        const Move move =
            list[static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())))];
        const Position before = p;
        make_move(p, move);
        ASSERT_EQ(p.hash, compute_hash(p)) << move_notation(move);
        EXPECT_EQ(p.side_to_move, other(before.side_to_move));
        EXPECT_EQ(p.move_number, before.move_number + (before.side_to_move == Colour::black));
        const bool resets = move.is_capture() || move.is_drop();
        EXPECT_EQ(p.quiet_plies, resets ? 0u : before.quiet_plies + 1);
        EXPECT_EQ(p.kings, before.kings);
        EXPECT_EQ(p.men[0] & p.men[1], 0u);
        EXPECT_EQ((p.men[0] | p.men[1]) & (p.kings | missing_squares), 0u);
    }
}

TEST(ChessencePosition, RepetitionComparesPlacementReservesAndSideToMove) {
    const Position a = setup("Kf1 ka9 Md2 mc8", "Mm");
    EXPECT_TRUE(same_for_repetition(a, setup("Kf1 ka9 Md2 mc8", "Mm")));
    EXPECT_FALSE(same_for_repetition(a, setup("Kf1 ka9 Md2 mc8", "MMm")));
    EXPECT_FALSE(same_for_repetition(a, setup("Kf1 ka9 Md2 mc8", "M")));
    EXPECT_FALSE(same_for_repetition(a, setup("Kf1 ka9 Md2 mc8", "Mm", 'b')));
    EXPECT_FALSE(same_for_repetition(a, setup("Kf1 ka9 Md3 mc8", "Mm")));
    // Counters are not part of it.
    EXPECT_TRUE(same_for_repetition(a, position_of(fen_of("Kf1 ka9 Md2 mc8", "Mm", 'w', 7, 9))));
    EXPECT_NE(a.hash, setup("Kf1 ka9 Md2 mc8", "MMm").hash);
    EXPECT_NE(a.hash, setup("Kf1 ka9 Md2 mc8", "Mm", 'b').hash);
}

}  // namespace
