#include "core/chessence/notation.h"

#include <gtest/gtest.h>

#include "chessence_test_support.h"

namespace {

using namespace chessence_test;

std::string error_of(const Position& p, std::string_view text) {
    const auto move = parse_move(p, text);
    return move ? "" : move.error();
}

void expect_error(const Position& p, std::string_view text, std::string_view part) {
    const std::string error = error_of(p, text);
    EXPECT_NE(error.find(part), std::string::npos)
        << "move: " << text << "\nerror: " << error << "\nexpected to mention: " << part;
}

TEST(ChessenceNotation, CanonicalFormsOfMoveCaptureAndDrop) {
    EXPECT_EQ(move_notation(Move::quiet(make_square(4, 2), make_square(4, 3))), "e3-e4");
    EXPECT_EQ(move_notation(Move::capture(make_square(3, 1), make_square(1, 3))), "d2xb4");
    EXPECT_EQ(move_notation(Move::drop(make_square(4, 0))), "@e1");
}

TEST(ChessenceNotation, EveryLegalMoveParsesBackToItself) {
    const Position p = setup("Kf1 ka9 Mc1 Mc2 mc4 mc5", "M");
    MoveList list;
    generate_legal(p, list);
    ASSERT_FALSE(list.empty());
    for (const Move move : list) {
        const auto parsed = parse_move(p, move_notation(move));
        ASSERT_TRUE(parsed.ok()) << move_notation(move);
        EXPECT_EQ(*parsed, move);
    }
}

TEST(ChessenceNotation, ParserAcceptsADashForACapture) {
    const Position p = setup("Kf1 ka9 Mc1 Mc2 mc4 mc5");
    const auto move = parse_move(p, "c2-c4");
    ASSERT_TRUE(move.ok()) << move.error();
    EXPECT_TRUE(move->is_capture());
    EXPECT_EQ(move_notation(*move), "c2xc4");
}

TEST(ChessenceNotation, CrossOnAMoveThatCapturesNothingIsRefused) {
    // Decision: `x` claims a capture; on a plain move that claim is wrong.
    expect_error(start_position(), "e3xe4", "not a capture; write e3-e4");
}

TEST(ChessenceNotation, UnknownTextIsRefused) {
    const Position p = start_position();
    for (const char* text :
         {"", "e3", "e3e4", "e3+e4", "@", "@e", "e3-e4-e5", " e3-e4", "Me3-e4", "O-O"}) {
        expect_error(p, text, "is not a move");
    }
}

TEST(ChessenceNotation, SquaresOffTheBoardAreRefused) {
    const Position p = start_position();
    expect_error(p, "g1-f1", "'g1' is not a square");
    expect_error(p, "e3-e0", "'e0' is not a square");
    expect_error(p, "@a10", "is not a move");
    expect_error(p, "@z1", "'z1' is not a square");
    expect_error(p, "E3-E4", "'E3' is not a square");
}

TEST(ChessenceNotation, MissingSquaresAreRefused) {
    const Position p = start_position();
    expect_error(p, "d3-d4", "d4 is a missing square");
    expect_error(p, "b3-c3", "b3 is a missing square");
    expect_error(p, "@a2", "a2 is a missing square");
}

TEST(ChessenceNotation, IllegalMovesSayWhy) {
    const Position start = start_position();
    expect_error(start, "c3-c4", "no man of yours on c3");
    expect_error(start, "c7-d7", "no man of yours on c7");
    expect_error(start, "f1-f3", "no man of yours on f1");
    expect_error(start, "d3-a6", "cannot move to a6");
    expect_error(start, "@e1", "e1 is occupied");
    expect_error(start, "@c3", "own six starting squares");
    expect_error(setup("Kf1 ka9 Md2 Me2"), "@e1", "no men left in reserve");
    // b1 (rook power from a1) pins d1 to the king on f1.
    expect_error(setup("Kf1 ka9 Md1 Me2 mb1 ma1"), "d1-c2", "would leave your king in check");
    expect_error(position_of("k5/5*/4*1/2*3/1*2*1/3*2/1*4/*m4/1m3K[MMM] w 0 1"), "@d2",
                 "would leave your king in check");
}

}  // namespace
