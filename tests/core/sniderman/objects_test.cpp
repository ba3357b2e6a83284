#include "core/sniderman/objects.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/game.h"

namespace core::sniderman {
namespace {

// Plays `moves` from `fen` under `object` and returns the winner's side name.
std::string winner(const std::string& fen, int object, const std::vector<std::string>& moves) {
    GameOptions options;
    options.fen = fen;
    options.object = object;
    auto game = core::make_game(VariantId::sniderman, options);
    EXPECT_TRUE(game.ok());
    for (const auto& move : moves) {
        EXPECT_TRUE((*game)->play(move).ok()) << move;
    }
    const auto outcome = (*game)->outcome();
    EXPECT_TRUE(outcome.has_value());
    EXPECT_EQ(outcome->reason, "object_decided");
    return std::string(side_name(VariantId::sniderman, *outcome->winner));
}

// White king a1 next to a black queen b1: one capture ends the round.
constexpr const char* king_and_queen = "4/4/4/Kq2 1";
// White king a1, black queen b1 and rook c1: two captures (b1 red, a1 and c1 dark).
constexpr const char* three_on_rank_one = "4/4/4/Kqr1 1";

TEST(SnidermanObjects, RedSquaresAreTheLightOnes) {
    const std::vector<std::string> red = {"b1", "d1", "a2", "c2", "b3", "d3", "a4", "c4"};
    for (Square s = 0; s < square_count; ++s) {
        const bool listed = std::find(red.begin(), red.end(), square_name(s)) != red.end();
        EXPECT_EQ(is_red(s), listed) << square_name(s);
    }
}

TEST(SnidermanObjects, TextsAreNumberedOneToTen) {
    EXPECT_EQ(object_text(1), "ODD wins if the last piece captured is White");
    for (int n = 1; n <= object_count; ++n) {
        EXPECT_EQ(object_text(n).rfind("ODD wins if", 0), 0u) << n;
    }
    EXPECT_EQ(object_text(0), "");
    EXPECT_EQ(object_text(11), "");
    EXPECT_FALSE(to_object(0));
    EXPECT_EQ(to_object(4), Object::king_captured_by_even);
}

TEST(SnidermanObjects, LastCapturedWhite) {
    EXPECT_EQ(winner(king_and_queen, 1, {"b1xa1"}), "odd");
    EXPECT_EQ(winner(king_and_queen, 1, {"a1xb1"}), "even");
}

TEST(SnidermanObjects, LastCapturedOnRed) {
    EXPECT_EQ(winner(king_and_queen, 2, {"a1xb1"}), "odd");
    EXPECT_EQ(winner(king_and_queen, 2, {"b1xa1"}), "even");
}

TEST(SnidermanObjects, LastCapturedOnEdgeRank) {
    EXPECT_EQ(winner("4/4/q3/K3 1", 3, {"a2xa1"}), "odd");
    EXPECT_EQ(winner("4/4/q3/K3 1", 3, {"a1xa2"}), "even");
    EXPECT_EQ(winner("K3/q3/4/4 1", 3, {"a3xa4"}), "odd");
}

TEST(SnidermanObjects, KingCapturedByEven) {
    EXPECT_EQ(winner("4/4/4/Kq2 2", 4, {"b1xa1"}), "odd");   // EVEN's move takes the king
    EXPECT_EQ(winner("4/4/4/Kq2 1", 4, {"b1xa1"}), "even");  // ODD's move takes it
    EXPECT_EQ(winner("4/4/4/Kq2 2", 4, {"a1xb1"}), "even");  // no king taken
    // A king taken early by EVEN still counts when other captures follow.
    EXPECT_EQ(winner("4/4/4/Kq1R 2", 4, {"b1xa1", "d1xa1"}), "odd");
    EXPECT_EQ(winner("4/4/4/Kq1R 1", 4, {"b1xa1", "d1xa1"}), "even");
}

TEST(SnidermanObjects, OddNumberOfPiecesLeft) {
    EXPECT_EQ(winner(king_and_queen, 5, {"a1xb1"}), "odd");   // one piece left
    EXPECT_EQ(winner("n3/4/4/Kq2 1", 5, {"a1xb1"}), "even");  // king and knight left
}

TEST(SnidermanObjects, OddNumberOfWhitePiecesLeft) {
    EXPECT_EQ(winner("n3/4/4/Kq2 1", 6, {"a1xb1"}), "odd");   // the white king
    EXPECT_EQ(winner("n3/4/4/Kq2 1", 6, {"b1xa1"}), "even");  // no white piece
}

TEST(SnidermanObjects, AllPiecesOfOneColour) {
    EXPECT_EQ(winner("n3/4/4/Kq2 1", 7, {"b1xa1"}), "odd");   // queen and knight, both black
    EXPECT_EQ(winner("n3/4/4/Kq2 1", 7, {"a1xb1"}), "even");  // king and knight
    EXPECT_EQ(winner(king_and_queen, 7, {"b1xa1"}), "odd");   // a single piece counts
}

TEST(SnidermanObjects, LastTwoLandingsSameColour) {
    EXPECT_EQ(winner(three_on_rank_one, 8, {"a1xb1", "c1xb1"}), "odd");   // b1, b1
    EXPECT_EQ(winner(three_on_rank_one, 8, {"a1xb1", "b1xc1"}), "even");  // b1, c1
    EXPECT_EQ(winner("4/4/4/Kq1r 1", 8, {"a1xb1", "d1xb1"}), "odd");
}

TEST(SnidermanObjects, LastTwoCapturedSameColour) {
    EXPECT_EQ(winner(three_on_rank_one, 9, {"a1xb1", "b1xc1"}), "odd");   // queen, rook
    EXPECT_EQ(winner(three_on_rank_one, 9, {"a1xb1", "c1xb1"}), "even");  // queen, king
}

TEST(SnidermanObjects, LastCapturedOutranksPrevious) {
    EXPECT_EQ(winner(three_on_rank_one, 10, {"a1xb1", "c1xb1"}), "odd");   // king after queen
    EXPECT_EQ(winner(three_on_rank_one, 10, {"a1xb1", "b1xc1"}), "even");  // rook after queen
    EXPECT_EQ(winner("4/4/4/Rrr1 1", 10, {"a1xb1", "c1xb1"}), "even");     // rook after rook
}

TEST(SnidermanObjects, ObjectsNeedingMissingCapturesGoToEven) {
    const char* frozen = "K3/4/4/3k 1";  // no capture at all
    for (const int object : {1, 2, 3, 8, 9, 10}) {
        EXPECT_EQ(winner(frozen, object, {}), "even") << object;
    }
    // One capture is not two: 8, 9 and 10 stay false even where the one capture would fit.
    for (const int object : {8, 9, 10}) {
        EXPECT_EQ(winner(king_and_queen, object, {"b1xa1"}), "even") << object;
        EXPECT_EQ(winner(king_and_queen, object, {"a1xb1"}), "even") << object;
    }
    // The objects about the board still decide a capture-free round.
    EXPECT_EQ(winner(frozen, 7, {}), "even");
    EXPECT_EQ(winner("K3/4/4/3N 1", 7, {}), "odd");
    EXPECT_EQ(winner(frozen, 6, {}), "odd");
}

TEST(SnidermanObjects, HistorySummaryKeepsOnlyWhatTheObjectNeeds) {
    CaptureHistory a;
    CaptureHistory b;
    a.record(Move{0, 1}, make_piece(Colour::black, Kind::queen), 1);
    b.record(Move{0, 4}, make_piece(Colour::white, Kind::queen), 1);
    EXPECT_EQ(history_summary(Object::last_captured_white, a),
              history_summary(Object::last_captured_white, b));
    EXPECT_NE(history_summary(Object::last_two_captured_same_colour, a),
              history_summary(Object::last_two_captured_same_colour, b));
    EXPECT_EQ(history_summary(Object::last_two_landings_same_colour, a),
              history_summary(Object::last_two_landings_same_colour, b));  // b1 and a2 both red
    // Object 10 needs the rank of the last piece taken, not its colour.
    EXPECT_EQ(history_summary(Object::last_captured_outranks_previous, a),
              history_summary(Object::last_captured_outranks_previous, b));
    // Object 9 needs its colour, not its rank.
    CaptureHistory c;
    c.record(Move{0, 1}, make_piece(Colour::black, Kind::knight), 1);
    EXPECT_EQ(history_summary(Object::last_two_captured_same_colour, a),
              history_summary(Object::last_two_captured_same_colour, c));
    EXPECT_NE(history_summary(Object::last_captured_outranks_previous, a),
              history_summary(Object::last_captured_outranks_previous, c));
    // Before any capture the summary differs from every summary after one.
    for (int n = 8; n <= 10; ++n) {
        EXPECT_NE(history_summary(*to_object(n), CaptureHistory{}),
                  history_summary(*to_object(n), a))
            << n;
    }
}

}  // namespace
}  // namespace core::sniderman
