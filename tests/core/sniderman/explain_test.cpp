#include "core/sniderman/explain.h"

#include <gtest/gtest.h>

#include "core/sniderman/sniderman_game.h"

namespace core::sniderman {
namespace {

// White rook a1 takes the Black knight on a2 (a red square, rank 2); nothing else can capture.
constexpr std::string_view one_capture = "4/4/n3/R3 1";
// Then the Black queen on a3 takes the rook back on a2 (EVEN's move).
constexpr std::string_view two_captures = "4/q3/n3/R3 1";

std::string explain(std::string_view start, int object, const std::vector<std::string>& moves) {
    const auto text = explain_round(start, object, moves);
    EXPECT_TRUE(text) << (text ? "" : text.error());
    return text ? *text : "";
}

TEST(ExplainRound, NamesTheLastCaptureAndTheVerdict) {
    EXPECT_EQ(explain(one_capture, 1, {"a1xa2"}),
              "The last piece captured was a Black knight on a2: not White, so EVEN wins.");
    EXPECT_EQ(explain(one_capture, 2, {"a1xa2"}),
              "The last piece captured was a Black knight on a2, a red square, so ODD wins.");
    EXPECT_EQ(explain(one_capture, 3, {"a1xa2"}),
              "The last piece captured was a Black knight on a2, on rank 2, so EVEN wins.");
}

TEST(ExplainRound, CountsWhatIsLeft) {
    EXPECT_EQ(explain(one_capture, 5, {"a1xa2"}),
              "1 piece is left on the board, an odd number, so ODD wins.");
    EXPECT_EQ(explain(one_capture, 6, {"a1xa2"}),
              "1 White piece is left, an odd number, so ODD wins.");
    EXPECT_EQ(explain(one_capture, 7, {"a1xa2"}), "Only White pieces are left, so ODD wins.");
    EXPECT_EQ(explain(two_captures, 6, {"a1xa2", "a3xa2"}),
              "0 White pieces are left, an even number, so EVEN wins.");
}

TEST(ExplainRound, ObjectsThatNeedTwoCapturesSayWhenThereWasOnlyOne) {
    for (const int object : {8, 9, 10}) {
        EXPECT_EQ(explain(one_capture, object, {"a1xa2"}),
                  "Fewer than two pieces were captured, so EVEN wins.");
    }
    EXPECT_EQ(explain(one_capture, 4, {"a1xa2"}),
              "No king was captured by one of EVEN's moves, so EVEN wins.");
}

TEST(ExplainRound, ComparesTheLastTwoCaptures) {
    const std::vector<std::string> moves = {"a1xa2", "a3xa2"};
    EXPECT_EQ(explain(two_captures, 8, moves),
              "The last two captures landed on a2 (a red square) and a2 (a red square), so ODD "
              "wins.");
    EXPECT_EQ(explain(two_captures, 9, moves),
              "The last two pieces captured were a Black knight and then a White rook: different "
              "colours, so EVEN wins.");
    EXPECT_EQ(explain(two_captures, 10, moves),
              "The last piece captured, a White rook, outranks the one captured before it, a Black "
              "knight, so ODD wins.");
}

TEST(ExplainRound, TheVerdictIsTheObjectsVerdict) {
    // Every object on a full deal played out by always taking the first capture.
    const std::string deal(reference_fen);
    for (int object = 1; object <= object_count; ++object) {
        SnidermanGame round(*parse_position(deal), object);
        std::vector<std::string> moves;
        while (round.running()) {
            moves.push_back(*round.play(round.legal_moves().front()));
        }
        const bool odd = round.outcome()->winner == Side::first;
        const auto text = explain(deal, object, moves);
        EXPECT_TRUE(text.ends_with(odd ? "ODD wins." : "EVEN wins.")) << object << ": " << text;
    }
}

TEST(ExplainRound, RefusesWhatIsNotAFinishedRound) {
    EXPECT_FALSE(explain_round(two_captures, 1, {"a1xa2"}));  // the round goes on
    EXPECT_FALSE(explain_round(one_capture, 11, {"a1xa2"}));
    EXPECT_FALSE(explain_round(one_capture, 1, {"a1xa3"}));
    EXPECT_FALSE(explain_round("nonsense", 1, {}));
}

}  // namespace
}  // namespace core::sniderman
