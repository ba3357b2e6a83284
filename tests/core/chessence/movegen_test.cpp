#include "core/chessence/movegen.h"

#include <gtest/gtest.h>

#include "chessence_test_support.h"

namespace {

using namespace chessence_test;

// ---- Relations: where a man's powers come from -------------------------------------------------

TEST(ChessenceRelations, OrthogonalFriendGivesRookPower) {
    const Position p = setup("Kf1 ka9 Mc3 Mc4");
    EXPECT_EQ(legal_names_from(p, "c3"), (Names{"c3-c1", "c3-c2", "c3-d3", "c3-e3", "c3-f3"}));
    EXPECT_EQ(legal_names_from(p, "c4"), (Names{"c4-a4", "c4-b4", "c4-c5"}));
}

TEST(ChessenceRelations, DiagonalFriendGivesBishopPower) {
    const Position p = setup("Kf1 ka9 Mc4 Md5");
    EXPECT_EQ(legal_names_from(p, "c4"), (Names{"c4-d3", "c4-e2"}));
    EXPECT_EQ(legal_names_from(p, "d5"), (Names{"d5-e4", "d5-e6", "d5-f3", "d5-f7"}));
}

TEST(ChessenceRelations, KnightDistanceFriendGivesKnightPower) {
    const Position p = setup("Kf1 ka9 Mc1 Md3");
    EXPECT_EQ(legal_names_from(p, "c1"), (Names{"c1-e2"}));
    EXPECT_EQ(legal_names_from(p, "d3"),
              (Names{"d3-b2", "d3-b4", "d3-c5", "d3-e1", "d3-f2", "d3-f4"}));
}

TEST(ChessenceRelations, PowersAddUp) {
    const Names all = legal_names_from(setup("Kf1 ka9 Mc4 Mc3 Md5 Ma3"), "c4");
    Names each;
    for (const char* partner : {"Mc3", "Md5", "Ma3"}) {
        const auto part = legal_names_from(setup(std::string("Kf1 ka9 Mc4 ") + partner), "c4");
        EXPECT_FALSE(part.empty()) << partner;
        each.insert(each.end(), part.begin(), part.end());
    }
    std::sort(each.begin(), each.end());
    EXPECT_EQ(all, each);
    EXPECT_EQ(all.size(), 11u);
}

TEST(ChessenceRelations, ManWithoutFriendsCannotMove) {
    EXPECT_TRUE(legal_names(setup("Kf1 ka9 Mc4")).empty());
    EXPECT_TRUE(legal_names(setup("Kf1 ka9 Mc4 Ma1 Mf9")).empty());
}

TEST(ChessenceRelations, KingGivesNoPower) {
    // e1 and e2 stand next to their own king f1, each other apart.
    EXPECT_TRUE(legal_names(setup("Kf1 ka9 Me1")).empty());
    EXPECT_TRUE(legal_names(setup("Kf1 ka9 mb8", "", 'b')).empty());
}

TEST(ChessenceRelations, EnemyManGivesNoPower) {
    EXPECT_TRUE(legal_names(setup("Kf1 ka9 Mc4 mc5 md5 ma5")).empty());
    EXPECT_TRUE(legal_names(setup("Kf1 ka9 Mc4 mc5", "", 'b')).empty());
}

TEST(ChessenceRelations, MissingSquareNeitherMakesNorBreaksARelation) {
    // a5 and c5 have the missing b5 between them; d3 and d5 the missing d4: no relation is made.
    EXPECT_TRUE(legal_names(setup("Kf1 ka9 Ma5 Mc5")).empty());
    EXPECT_TRUE(legal_names(setup("Kf1 ka9 Md3 Md5")).empty());
    // a4 and b6 are a knight's move apart across the missing b5: the relation holds.
    const Position p = setup("Kf1 ka9 Ma4 Mb6");
    EXPECT_EQ(legal_names_from(p, "a4"), (Names{"a4-b2", "a4-c3", "a4-c5"}));
    EXPECT_FALSE(legal_names_from(p, "b6").empty());
}

TEST(ChessenceRelations, PowersAreReadFromThePositionBeforeTheMove) {
    Position p = setup("Kf1 ka9 Mc3 Mc4 me9 mf9");
    // c4 leaves its only friend: it still moves by the power c3 gives it now.
    EXPECT_TRUE(is_legal(p, "c4-c5"));
    make_move(p, *parse_move(p, "c4-c5"));
    make_move(p, *parse_move(p, "e9-d9"));
    // Now neither white man has a friend, so neither can move.
    EXPECT_TRUE(legal_names(p).empty());
}

// ---- Slides and leaps
// ----------------------------------------------------------------------------

TEST(ChessenceSlides, SlideStopsBeforeAMenAndMayCaptureAnEnemyThere) {
    const Position p = setup("Kf1 ka9 Mc1 Mc2 mc4 mc5");
    EXPECT_EQ(legal_names_from(p, "c2"),
              (Names{"c2-b2", "c2-c3", "c2-d2", "c2-e2", "c2-f2", "c2xc4"}));
}

TEST(ChessenceSlides, SlideStopsBeforeAMissingSquare) {
    const Position p = setup("Kf1 ka9 Mb1 Mc1");
    EXPECT_EQ(legal_names_from(p, "b1"), (Names{"b1-a1", "b1-b2"}));
}

TEST(ChessenceSlides, SlideStopsAtTheEdge) {
    const Position p = setup("Kf1 ka9 Md9 Md8");
    EXPECT_EQ(legal_names_from(p, "d9"), (Names{"d9-b9", "d9-c9", "d9-e9", "d9-f9"}));
}

TEST(ChessenceKings, KingsAreNeverCaptured) {
    // a7 slides up to a8 and stops before the king; b7 has a knight's move onto a9 but no capture.
    const Position p = setup("Kf1 ka9 Ma7 Ma6 Mb7 Mc5");
    const Names a7 = legal_names_from(p, "a7");
    EXPECT_NE(std::find(a7.begin(), a7.end(), "a7-a8"), a7.end());
    for (const auto& move : legal_names(p)) {
        EXPECT_NE(move.substr(move.size() - 2), "a9") << move;
    }
}

TEST(ChessenceKings, KingsNeverMove) {
    Position p = setup("Kf1 ka9", "MMMmmm");
    for (const auto& move : legal_names(p)) {
        EXPECT_EQ(move[0], '@') << move;
    }
    for (const auto& move : legal_names(start_position())) {
        EXPECT_NE(move.substr(0, 2), "f1") << move;
    }
}

TEST(ChessenceKnights, KnightLeapsOverMenAndMissingSquares) {
    const Position p = setup("Kf1 ka9 Mc3 Me2 mc4 md3");
    EXPECT_EQ(legal_names_from(p, "c3"), (Names{"c3-a4", "c3-b1", "c3-d1", "c3-d5", "c3-e4"}));
}

TEST(ChessenceKnights, KnightMayNotLandOnAMissingSquareOrAFriend) {
    const Names c3 = legal_names_from(setup("Kf1 ka9 Mc3 Me2"), "c3");
    for (const char* never : {"c3-a2", "c3-b5", "c3-e2", "c3xe2"}) {
        EXPECT_EQ(std::find(c3.begin(), c3.end(), never), c3.end()) << never;
    }
}

TEST(ChessenceKnights, KnightCapturesAnEnemyMan) {
    EXPECT_TRUE(is_legal(setup("Kf1 ka9 Mc3 Me2 me4 mf4"), "c3xe4"));
}

// ---- Drops
// ---------------------------------------------------------------------------------------

TEST(ChessenceDrops, DropGoesOnlyToAnEmptyOwnStartingSquare) {
    EXPECT_EQ(legal_names_from(setup("Kf1 ka9 Md2 Me2 mc3", "MMm"), "@"),
              (Names{"@d3", "@e1", "@e3", "@f2"}));
    EXPECT_EQ(legal_names_from(setup("Kf1 ka9 Md2 mb8 mc7", "Mm", 'b'), "@"),
              (Names{"@a8", "@b7", "@b9", "@c8"}));
}

TEST(ChessenceDrops, NoDropWithoutAReserveMan) {
    EXPECT_TRUE(legal_names_from(setup("Kf1 ka9 Md2 Me2"), "@").empty());
    EXPECT_TRUE(legal_names_from(setup("Kf1 ka9 Md2 Me2", "mmm"), "@").empty());
}

TEST(ChessenceDrops, ReservesAreNeverRefilled) {
    Position p = setup("Kf1 ka9 Mc1 Mc2 mc4 mc5", "Mm");
    make_move(p, *parse_move(p, "c2xc4"));
    EXPECT_EQ(p.reserve[0], 1);
    EXPECT_EQ(p.reserve[1], 1);
    make_move(p, *parse_move(p, "@c8"));
    EXPECT_EQ(p.reserve[1], 0);
    EXPECT_FALSE(legal_names_from(p, "@").empty());
    make_move(p, *parse_move(p, "@e1"));
    EXPECT_EQ(p.reserve[0], 0);
    EXPECT_TRUE(legal_names_from(p, "@").empty());
}

TEST(ChessenceDrops, DropMayNotLeaveKingInCheck) {
    // Black's b1 (rook power from b2) attacks f1 along the first rank: only @e1 blocks it.
    const Position p = position_of("k5/5*/4*1/2*3/1*2*1/3*2/1*4/*m4/1m3K[MMM] w 0 1");
    EXPECT_TRUE(in_check(p));
    EXPECT_EQ(legal_names(p), (Names{"@e1"}));
    MoveList pseudo;
    generate_pseudo_legal(p, pseudo);
    EXPECT_EQ(pseudo.size(), 6);
}

TEST(ChessenceDrops, DroppingIsNeverCompulsory) {
    const Position p = setup("Kf1 ka9 Md2 Me2", "M");
    EXPECT_FALSE(legal_names_from(p, "@").empty());
    EXPECT_FALSE(legal_names_from(p, "d2").empty());
}

}  // namespace
