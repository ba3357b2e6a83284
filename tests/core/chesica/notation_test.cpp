#include "core/chesica/notation.h"

#include <gtest/gtest.h>

#include <string>

#include "core/chesica/fen.h"
#include "core/chesica/movegen.h"

using core::chesica::parse_move_squares;
using core::chesica::Square;

namespace {

Square sq(const char* name) {
    return core::chesica::make_square(name[0] - 'a', name[1] - '1');
}

// The canonical notation of every move generated in `fen`.
std::vector<std::string> notations(const char* fen) {
    const auto p = core::chesica::parse_fen(fen);
    EXPECT_TRUE(p.ok());
    core::chesica::MoveList list;
    core::chesica::generate_moves(*p, list);
    std::vector<std::string> result;
    for (const auto& m : list) {
        result.push_back(core::chesica::to_notation(m));
    }
    std::sort(result.begin(), result.end());
    return result;
}

}  // namespace

TEST(ChesicaNotation, SquareNames) {
    EXPECT_EQ(core::chesica::square_name(0), "a1");
    EXPECT_EQ(core::chesica::square_name(63), "h8");
    EXPECT_EQ(core::chesica::square_name(sq("c7")), "c7");
}

TEST(ChesicaNotation, CanonicalUsesXForCapturesAndJumpsOnly) {
    EXPECT_EQ(notations("8/8/8/4r3/2rr4/2Q5/8/8 w 0 1"),
              (std::vector<std::string>{"c3-b3", "c3-b4", "c3-d3", "c3xc4", "c3xd4"}));
    EXPECT_EQ(notations("8/8/3b1b2/8/3b4/2B5/1r6/R7 w 0 1"),
              (std::vector<std::string>{"c3xe5xc7", "c3xe5xg7"}));
}

TEST(ChesicaNotation, ParserAcceptsEitherSeparator) {
    const std::vector<Square> step{sq("c3"), sq("d4")};
    EXPECT_EQ(*parse_move_squares("c3-d4"), step);
    EXPECT_EQ(*parse_move_squares("c3xd4"), step);
    const std::vector<Square> chain{sq("c3"), sq("e5"), sq("c7")};
    EXPECT_EQ(*parse_move_squares("c3xe5xc7"), chain);
    EXPECT_EQ(*parse_move_squares("c3-e5-c7"), chain);
    EXPECT_EQ(*parse_move_squares("c3xe5-c7"), chain);
}

TEST(ChesicaNotation, MoveSquaresListEveryLanding) {
    const auto p = core::chesica::parse_fen("8/8/1r1r4/8/1r1r4/2+R5/8/7q w 0 1");
    ASSERT_TRUE(p.ok());
    core::chesica::MoveList list;
    core::chesica::generate_moves(*p, list);
    ASSERT_EQ(list.size(), 2);
    for (const auto& m : list) {
        const auto squares = core::chesica::move_squares(m);
        ASSERT_EQ(squares.size(), 5u);
        EXPECT_EQ(squares.front(), sq("c3"));
        EXPECT_EQ(squares.back(), sq("c3"));
        EXPECT_EQ(squares[2], sq("c7"));
    }
}

TEST(ChesicaNotation, MalformedMovesSayWhatIsWrong) {
    const std::pair<const char*, const char*> cases[] = {
        {"", "empty"},
        {"c3", "one square"},
        {"c3-", "ends with a separator"},
        {"c3-d", "middle of a square"},
        {"i3-d4", "'i3'"},
        {"c3-d9", "'d9'"},
        {"C3-d4", "'C3'"},
        {"c3/d4", "found '/'"},
        {"c3 d4", "found ' '"},
        {"c3--d4", "'-d'"},
        {"a1xc3xe5xg7xe5xc3xa1xc3xe5xg7xe5xc3xa1xc3", "more than 13"},
    };
    for (const auto& [text, expected] : cases) {
        const auto parsed = parse_move_squares(text);
        ASSERT_FALSE(parsed.ok()) << "accepted '" << text << "'";
        EXPECT_NE(parsed.error().find(expected), std::string::npos)
            << "'" << text << "' gave: " << parsed.error();
    }
}
