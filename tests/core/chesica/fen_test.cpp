#include "core/chesica/fen.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/core/chesica/chesica_test_helpers.h"

using core::chesica::parse_fen;
using core::chesica::to_fen;

TEST(ChesicaFen, StartStringIsTheSetupOfTheRules) {
    const auto p = parse_fen(core::chesica::start_fen);
    ASSERT_TRUE(p.ok()) << p.error();
    EXPECT_TRUE(p->same_placement(core::chesica::start_position()));
    EXPECT_EQ(to_fen(core::chesica::start_position()), core::chesica::start_fen);
}

TEST(ChesicaFen, RoundTripsExactly) {
    for (const char* fen :
         {"1q1q1q1q/r1r1r1r1/1b1b1b1b/8/8/B1B1B1B1/1R1R1R1R/Q1Q1Q1Q1 w 0 1",
          "8/2b1b3/1B6/8/8/8/8/q7 w 0 1", "8/8/8/3bb3/3Q4/8/8/7q w 0 1",
          "8/8/3b1b2/8/3b4/2B5/1r6/R7 w 0 1", "7b/8/8/8/3+R4/8/8/8 w 0 1",
          "1+B1+B1+B1+B/B1B1B1B1/8/8/8/8/8/q7 w 0 1", "7r/8/8/8/3+Q4/2b5/8/8 w 0 1",
          "+q+r+b+Q+R+B2/8/8/8/8/8/8/7B b 57 123"}) {
        const auto p = parse_fen(fen);
        ASSERT_TRUE(p.ok()) << fen << ": " << p.error();
        EXPECT_EQ(to_fen(*p), fen);
    }
}

TEST(ChesicaFen, ReadsPiecesSidesAndCounters) {
    const auto p = parse_fen("+q7/8/8/8/8/8/8/6R1 b 7 12");
    ASSERT_TRUE(p.ok()) << p.error();
    using core::chesica::Kind;
    using core::chesica::Piece;
    EXPECT_EQ(p->piece_on(56), (Piece{core::Side::second, Kind::queen, true}));
    EXPECT_EQ(p->piece_on(6), (Piece{core::Side::first, Kind::rook, false}));
    EXPECT_FALSE(p->piece_on(0).has_value());
    EXPECT_EQ(p->to_move, core::Side::second);
    EXPECT_EQ(p->plies_without_capture, 7);
    EXPECT_EQ(p->move_number, 12);
    EXPECT_EQ(p->reversible_plies, 0);
}

// Each malformed string is refused with a message naming the problem.
TEST(ChesicaFen, MalformedStringsSayWhatIsWrong) {
    const std::pair<const char*, const char*> cases[] = {
        {"", "4 fields"},
        {"8/8/8/8/8/8/8/q7 w 0", "4 fields"},
        {"8/8/8/8/8/8/8/q7  w 0 1", "4 fields"},
        {"8/8/8/8/8/8/8/q7 w 0 1 ", "4 fields"},
        {"8/8/8/8/8/8/q7 w 0 1", "7 ranks"},
        {"8/8/8/8/8/8/8/8/q7 w 0 1", "9 ranks"},
        {"8/8/8/8/8/8/8/q8 w 0 1", "rank 1"},
        {"8/8/8/8/8/8/8/q6 w 0 1", "7 squares"},
        {"8/8/8/8/8/8/8/qqqqqqqqq w 0 1", "more than 8"},
        {"8/8/8/8/8/8/8/k7 w 0 1", "'k'"},
        {"8/8/8/8/8/8/8/q6+ w 0 1", "'+'"},
        {"8/8/8/8/8/8/8/+7q w 0 1", "'7'"},
        {"8/8/8/8/8/8/8/q09 w 0 1", "'0'"},
        {"8/8/8/8/8/8/8/q16 w 0 1", "two digits"},
        {"8/8/8/8/8/8/8/8 w 0 1", "no pieces"},
        {"8/8/8/8/8/BBBBBBBB/BBBBB3/8 w 0 1", "13 pieces"},
        {"8/8/8/8/8/8/8/q7 x 0 1", "'w' or 'b'"},
        {"8/8/8/8/8/8/8/q7 w -1 1", "plies without capture"},
        {"8/8/8/8/8/8/8/q7 w 01 1", "plies without capture"},
        {"8/8/8/8/8/8/8/q7 w a 1", "plies without capture"},
        {"8/8/8/8/8/8/8/q7 w 0 0", "move number"},
        {"8/8/8/8/8/8/8/q7 w 0 99999999999", "move number"},
    };
    for (const auto& [fen, expected] : cases) {
        const auto p = parse_fen(fen);
        ASSERT_FALSE(p.ok()) << "accepted '" << fen << "'";
        EXPECT_NE(p.error().find(expected), std::string::npos)
            << "'" << fen << "' gave: " << p.error();
    }
}

TEST(ChesicaFen, RandomGamePositionsRoundTrip) {
    for (const auto& p : chesica_test::random_game_positions(50)) {
        const std::string fen = core::chesica::to_fen(p);
        const auto parsed = core::chesica::parse_fen(fen);
        ASSERT_TRUE(parsed.ok()) << fen << ": " << parsed.error();
        EXPECT_TRUE(parsed->same_placement(p)) << fen;
        EXPECT_EQ(core::chesica::to_fen(*parsed), fen);
    }
}
