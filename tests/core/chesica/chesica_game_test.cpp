// The core::Game adapter: outcomes (rule 6 and the house rule), play, notation, views, perft.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/chesica/fen.h"
#include "core/games.h"
#include "tests/core/chesica/chesica_test_helpers.h"

using chesica_test::game_from;
using chesica_test::Moves;
using chesica_test::play_all;

TEST(ChesicaOutcome, AllCapturedWins) {
    auto game = game_from("8/8/8/8/3r4/2B5/8/8 w 0 1");
    ASSERT_TRUE(game->play("c3xe5").ok());
    ASSERT_TRUE(game->outcome().has_value());
    EXPECT_EQ(game->outcome()->winner, core::Side::first);
    EXPECT_EQ(game->outcome()->reason, "all_captured");
    EXPECT_TRUE(game->legal_moves().empty());
    EXPECT_FALSE(game->play("e5-d6").ok());
}

TEST(ChesicaOutcome, NoLegalMoveLoses) {
    auto game = game_from("1+B1+B1+B1+B/B1B1B1B1/8/8/8/8/8/q7 w 0 1");
    ASSERT_TRUE(game->outcome().has_value());
    EXPECT_EQ(game->outcome()->winner, core::Side::second);
    EXPECT_EQ(game->outcome()->reason, "no_legal_moves");
    EXPECT_TRUE(game->legal_moves().empty());
    EXPECT_EQ(game->perft(1), 0u);
}

TEST(ChesicaOutcome, HundredPliesWithoutCaptureDraw) {
    auto game = game_from("7+r/8/8/8/8/8/8/+R7 w 98 60");
    ASSERT_TRUE(game->play("a1-a2").ok());
    EXPECT_FALSE(game->outcome().has_value());
    ASSERT_TRUE(game->play("h8-h7").ok());
    ASSERT_TRUE(game->outcome().has_value());
    EXPECT_EQ(game->outcome()->winner, std::nullopt);
    EXPECT_EQ(game->outcome()->reason, "hundred_ply_rule");
    EXPECT_TRUE(game->legal_moves().empty());
}

TEST(ChesicaOutcome, CaptureResetsThePlyCount) {
    auto game = game_from("8/8/8/8/8/8/7r/R6r w 99 60");
    ASSERT_TRUE(game->play("a1-b1").ok());  // a non-capture: 100 plies, draw
    EXPECT_EQ(game->outcome()->reason, "hundred_ply_rule");
    auto capture = game_from("8/8/8/8/B7/8/7r/R6+r b 99 60");
    ASSERT_TRUE(capture->play("h1xa1").ok());
    EXPECT_EQ(capture->fen(), "8/8/8/8/B7/8/7r/+r7 w 0 61");
    EXPECT_FALSE(capture->outcome().has_value());
}

TEST(ChesicaOutcome, StrictRuleSetHasNoDraw) {
    auto game = game_from("7+r/8/8/8/8/8/8/+R7 w 150 90", core::RuleSet::strict);
    EXPECT_FALSE(game->outcome().has_value());
    EXPECT_FALSE(game->legal_moves().empty());
    EXPECT_EQ(game->rules(), core::RuleSet::strict);
    auto house = game_from("7+r/8/8/8/8/8/8/+R7 w 150 90");
    ASSERT_TRUE(house->outcome().has_value());
    EXPECT_EQ(house->outcome()->reason, "hundred_ply_rule");
}

TEST(ChesicaOutcome, NoLegalMoveLossTakesPrecedenceOverTheDraw) {
    // Black's only move makes the 100th ply without a capture and leaves White without a move.
    auto game = game_from("1+B1+B1+B1+B/B1B1B1B1/8/8/8/8/8/q7 b 99 60");
    EXPECT_EQ(game->legal_moves(), (Moves{"a1-b1"}));
    ASSERT_TRUE(game->play("a1-b1").ok());
    ASSERT_TRUE(game->outcome().has_value());
    EXPECT_EQ(game->outcome()->winner, core::Side::second);
    EXPECT_EQ(game->outcome()->reason, "no_legal_moves");
}

TEST(ChesicaGame, StartsFromTheRulesSetup) {
    auto result = core::make_game(core::VariantId::chesica);
    ASSERT_TRUE(result.ok());
    const auto& game = *result;
    EXPECT_EQ(game->variant(), core::VariantId::chesica);
    EXPECT_EQ(game->rules(), core::RuleSet::house);
    EXPECT_EQ(game->start_fen(), core::chesica::start_fen);
    EXPECT_EQ(game->fen(), core::chesica::start_fen);
    EXPECT_EQ(game->to_move(), core::Side::first);
    EXPECT_FALSE(game->in_check());
    EXPECT_FALSE(game->outcome().has_value());
    EXPECT_EQ(game->legal_moves().size(), 29u);
}

TEST(ChesicaGame, LegalMovesAreSortedAndUnique) {
    auto game = game_from("");
    auto moves = game->legal_moves();
    EXPECT_TRUE(std::is_sorted(moves.begin(), moves.end()));
    EXPECT_EQ(std::adjacent_find(moves.begin(), moves.end()), moves.end());
}

TEST(ChesicaGame, PlayAcceptsEitherSeparatorAndReturnsCanonical) {
    auto game = game_from("8/8/8/4r3/2rr4/2Q5/8/8 w 0 1");
    auto clone = game->clone();
    const auto capture = game->play("c3-c4");
    ASSERT_TRUE(capture.ok()) << capture.error();
    EXPECT_EQ(*capture, "c3xc4");
    const auto step = clone->play("c3xb4");
    ASSERT_TRUE(step.ok()) << step.error();
    EXPECT_EQ(*step, "c3-b4");
    EXPECT_EQ(clone->moves(), (Moves{"c3-b4"}));
    EXPECT_EQ(game->moves(), (Moves{"c3xc4"}));
}

TEST(ChesicaGame, RefusedMoveChangesNothingAndSaysWhy) {
    auto game = game_from("");
    const std::pair<const char*, const char*> cases[] = {
        {"a3-a4", "illegal"},        {"b6-a5", "no White piece on b6"},
        {"d4-e5", "no White piece"}, {"a3", "one square"},
        {"z3-a4", "'z3'"},
    };
    for (const auto& [move, expected] : cases) {
        const auto refused = game->play(move);
        ASSERT_FALSE(refused.ok()) << move;
        EXPECT_NE(refused.error().find(expected), std::string::npos) << refused.error();
    }
    EXPECT_EQ(game->fen(), core::chesica::start_fen);
    EXPECT_TRUE(game->moves().empty());
}

TEST(ChesicaGame, CountersAndTurnAdvance) {
    auto game = game_from("");
    play_all(*game, {"a3-b4", "b6-c5"});
    EXPECT_EQ(game->fen(), "1q1q1q1q/r1r1r1r1/3b1b1b/2b5/1B6/2B1B1B1/1R1R1R1R/Q1Q1Q1Q1 w 2 2");
    EXPECT_EQ(game->to_move(), core::Side::first);
    // d6 is occupied, so c5 can't be jumped: the Bishop takes it by replacement.
    ASSERT_TRUE(game->play("b4xc5").ok());
    EXPECT_EQ(game->fen(), "1q1q1q1q/r1r1r1r1/3b1b1b/2B5/8/2B1B1B1/1R1R1R1R/Q1Q1Q1Q1 b 0 2");
    EXPECT_EQ(game->to_move(), core::Side::second);
}

TEST(ChesicaGame, BoardViewShowsPiecesAsThePositionStringWritesThem) {
    auto game = game_from("7+r/8/8/8/8/8/8/Q7 w 0 1");
    const auto view = game->board();
    EXPECT_EQ(view.files, 8);
    EXPECT_EQ(view.ranks, 8);
    ASSERT_EQ(view.squares.size(), 64u);
    EXPECT_EQ(view.squares[0], "Q");
    EXPECT_EQ(view.squares[63], "+r");
    EXPECT_EQ(std::count(view.squares.begin(), view.squares.end(), ""), 62);
    EXPECT_EQ(view.reserves, (std::array<int, 2>{0, 0}));
}

TEST(ChesicaGame, BadPositionStringIsAnError) {
    core::GameOptions options;
    options.fen = "8/8/8 w 0 1";
    const auto game = core::make_game(core::VariantId::chesica, options);
    ASSERT_FALSE(game.ok());
    EXPECT_NE(game.error().find("ranks"), std::string::npos) << game.error();
}

TEST(ChesicaGame, CloneIsIndependent) {
    auto game = game_from("");
    auto copy = game->clone();
    ASSERT_TRUE(copy->play("a3-b4").ok());
    EXPECT_EQ(game->fen(), core::chesica::start_fen);
    EXPECT_TRUE(game->moves().empty());
    EXPECT_EQ(copy->moves().size(), 1u);
}
