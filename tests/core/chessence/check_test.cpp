// Check and the one legality rule: no move, a drop included, may leave the own king in check.
#include <gtest/gtest.h>

#include <set>

#include "chessence_test_support.h"
#include "core/chessence/movegen.h"
#include "core/chessence/position.h"

namespace {

using namespace chessence_test;

bool pseudo_legal(const Position& p, std::string_view notation) {
    MoveList list;
    generate_pseudo_legal(p, list);
    for (const Move move : list) {
        if (move_notation(move) == notation) {
            return true;
        }
    }
    return false;
}

TEST(ChessenceCheck, CheckIsAnEnemyManThatCouldMoveOntoTheKing) {
    EXPECT_FALSE(in_check(start_position()));
    // b1 has rook power from b2 and a free path c1 d1 e1 to f1.
    EXPECT_TRUE(in_check(setup("Kf1 ka9 mb1 mb2")));
    // Without a power there is no check, however close the man.
    EXPECT_FALSE(in_check(setup("Kf1 ka9 me1")));
    // A man on the path blocks it, whoever owns it.
    EXPECT_FALSE(in_check(setup("Kf1 ka9 mb1 mb2 Md1")));
    EXPECT_FALSE(in_check(setup("Kf1 ka9 mb1 mb2 md1")));
    // A knight-powered man checks across anything.
    EXPECT_TRUE(in_check(setup("Kf1 ka9 md2 mb1 Me1 Me2")));
}

TEST(ChessenceCheck, PinnedManStillGivesCheck) {
    // Black's e4 (knight power from c3) checks the white king on f2, though white's f3 (bishop
    // power from e2) pins it to the black king on d5.
    const Position p = setup("Kf2 kd5 me4 mc3 Mf3 Me2");
    EXPECT_TRUE(in_check(p));
    EXPECT_TRUE(pseudo_legal(p, "e2-d1"));
    EXPECT_FALSE(is_legal(p, "e2-d1"));
    EXPECT_TRUE(is_legal(p, "f3xe4"));
}

TEST(ChessenceCheck, NoMoveMayLeaveTheOwnKingInCheck) {
    // d1 stands between f1 and black's b1 (rook power from a1); its only move leaves the line.
    const Position p = setup("Kf1 ka9 Md1 Me2 mb1 ma1");
    EXPECT_FALSE(in_check(p));
    EXPECT_TRUE(pseudo_legal(p, "d1-c2"));
    EXPECT_FALSE(is_legal(p, "d1-c2"));
}

TEST(ChessenceCheck, PinnedManMayMoveAlongTheLine) {
    const Position p = setup("Kf1 ka9 Md1 Md2 mb1 ma1");
    EXPECT_EQ(legal_names_from(p, "d1"), (Names{"d1-c1", "d1-e1", "d1xb1"}));
}

TEST(ChessenceCheck, MoveCanGiveCheckByGivingAnotherManANewPower) {
    Position p = setup("Kf1 ka9 Ma7 Md7 Md6");
    make_move(p, *parse_move(p, "d7-b7"));
    // b7 now gives a7 rook power, and a7 reaches a9 through a8.
    EXPECT_TRUE(in_check(p));
    Position quiet = setup("Kf1 ka9 Ma7 Md7 Md6");
    make_move(quiet, *parse_move(quiet, "d7-d8"));
    EXPECT_FALSE(in_check(quiet));
}

TEST(ChessenceCheck, DropCanGiveCheckByGivingAManANewPower) {
    // The dropped man on e3 is a knight's move from c4, which then leaps onto b6.
    Position p = setup("Kf1 kb6 Mc4", "M");
    EXPECT_FALSE(king_in_check(p, Colour::black));
    make_move(p, *parse_move(p, "@e3"));
    EXPECT_TRUE(in_check(p));
}

TEST(ChessenceCheck, CapturingThePartnerParriesCheck) {
    // b1 checks by the rook power b2 gives it; taking b2 leaves b1 powerless.
    const Position p = position_of("k5/5*/4*1/2*3/1*2*1/3*2/1*M3/*m1M2/1m3K[] w 0 1");
    EXPECT_TRUE(in_check(p));
    EXPECT_EQ(legal_names(p), (Names{"c3xb2", "d2-c1", "d2-e1"}));
    Position after = p;
    make_move(after, *parse_move(p, "c3xb2"));
    EXPECT_TRUE(king_in_check(after, Colour::white) == false);
    EXPECT_NE(after.men[1] & bit(make_square(1, 0)), 0u);  // the checking man is still on b1
}

TEST(ChessenceCheck, BlockingParriesCheck) {
    const Position p = position_of("k5/5*/4*1/2*3/1*2*1/3*2/1*M3/*m1M2/1m3K[] w 0 1");
    for (const char* block : {"d2-c1", "d2-e1"}) {
        Position after = p;
        make_move(after, *parse_move(p, block));
        EXPECT_FALSE(king_in_check(after, Colour::white)) << block;
    }
}

TEST(ChessenceCheck, KnightOnlyReferencePosition) {
    const Position p = position_of("k5/m4*/4*1/2*3/1*M1*1/3*2/1*1M2/*5/5K[] w 0 1");
    const Names moves = legal_names(p);
    EXPECT_EQ(moves.size(), 12u);
    for (const auto& move : moves) {
        const int df = std::abs(move[3] - move[0]);
        const int dr = std::abs(move[4] - move[1]);
        EXPECT_TRUE((df == 1 && dr == 2) || (df == 2 && dr == 1)) << move;
    }
}

TEST(ChessenceCheck, LegalMovesAreThePseudoLegalMovesThatKeepTheKingSafe) {
    // Random games from the start: the fast filter (pins, check) against the plain definition.
    std::uint64_t seed = 99;
    for (int game = 0; game < 200; ++game) {
        Position p = start_position();
        for (int ply = 0; ply < 200; ++ply) {
            MoveList pseudo;
            generate_pseudo_legal(p, pseudo);
            MoveList expected;
            for (const Move move : pseudo) {
                Position after = p;
                make_move(after, move);
                if (!king_in_check(after, p.side_to_move)) {
                    expected.push(move);
                }
            }
            MoveList legal;
            generate_legal(p, legal);
            ASSERT_EQ(legal.size(), expected.size()) << position_string(p);
            for (int i = 0; i < legal.size(); ++i) {
                ASSERT_EQ(legal[i], expected[i]) << position_string(p);
            }
            ASSERT_EQ(count_legal(p), static_cast<std::uint64_t>(legal.size()));
            LegalTargets targets;
            targets.fill(p);
            ASSERT_EQ(targets.total(), legal.size());
            std::set<std::uint16_t> picked;
            for (int i = 0; i < targets.total(); ++i) {
                picked.insert(targets.move_at(i).raw());
            }
            std::set<std::uint16_t> listed;
            for (const Move move : legal) {
                listed.insert(move.raw());
            }
            ASSERT_EQ(picked, listed) << position_string(p);
            ASSERT_EQ(has_legal_move(p), !legal.empty());
            if (legal.empty()) {
                break;
            }
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            make_move(p, legal[static_cast<int>((seed >> 33) % legal.size())]);
        }
    }
}

}  // namespace
