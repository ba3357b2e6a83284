#include "core/sniderman/sniderman_game.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/game.h"

namespace core::sniderman {
namespace {

std::unique_ptr<Game> game_from(const std::optional<std::string>& fen, int object = 0) {
    GameOptions options;
    options.fen = fen;
    options.object = object;
    auto game = core::make_game(VariantId::sniderman, options);
    EXPECT_TRUE(game.ok()) << (game.ok() ? "" : game.error());
    return game.ok() ? std::move(*game) : nullptr;
}

TEST(SnidermanGame, DefaultsToTheReferencePosition) {
    const auto game = game_from(std::nullopt);
    EXPECT_EQ(game->variant(), VariantId::sniderman);
    EXPECT_EQ(game->fen(), "qbnr/rnbk/KBNR/RNBQ 1");
    EXPECT_EQ(game->start_fen(), game->fen());
    EXPECT_EQ(game->to_move(), Side::first);
    EXPECT_FALSE(game->in_check());
    EXPECT_FALSE(game->outcome().has_value());
    const auto legal = game->legal_moves();
    EXPECT_EQ(legal.size(), 20u);
    EXPECT_TRUE(std::is_sorted(legal.begin(), legal.end()));
    EXPECT_EQ(game->perft(3), 6766u);
    std::uint64_t total = 0;
    for (const auto& [move, count] : game->divide(3)) {
        total += count;
    }
    EXPECT_EQ(total, 6766u);
}

TEST(SnidermanGame, BoardViewListsPiecesFromA1) {
    const auto view = game_from("4/4/q3/K2n 1")->board();
    EXPECT_EQ(view.files, 4);
    EXPECT_EQ(view.ranks, 4);
    ASSERT_EQ(view.squares.size(), 16u);
    EXPECT_EQ(view.squares[0], "K");
    EXPECT_EQ(view.squares[3], "n");
    EXPECT_EQ(view.squares[4], "q");
    EXPECT_EQ(view.squares[1], "");
}

TEST(SnidermanGame, PlaysCapturesAndAlternatesSides) {
    auto game = game_from("4/4/4/Kqr1 1", 9);
    const auto played = game->play("a1-b1");
    ASSERT_TRUE(played.ok());
    EXPECT_EQ(*played, "a1xb1");
    EXPECT_EQ(game->to_move(), Side::second);
    EXPECT_EQ(game->fen(), "4/4/4/1Kr1 2");
    EXPECT_EQ(game->moves(), (std::vector<std::string>{"a1xb1"}));
    ASSERT_TRUE(game->play("b1xc1").ok());
    const auto outcome = game->outcome();
    ASSERT_TRUE(outcome.has_value());
    EXPECT_EQ(outcome->reason, "object_decided");
    EXPECT_EQ(outcome->winner, Side::first);  // queen then rook: both Black
    EXPECT_TRUE(game->legal_moves().empty());
    EXPECT_FALSE(game->play("c1xb1").ok());
}

TEST(SnidermanGame, IllegalMovesChangeNothing) {
    auto game = game_from(std::nullopt, 1);
    const std::string before = game->fen();
    for (const char* bad : {"a1xa2", "zz", "a1xd4", "b2xb1"}) {
        EXPECT_FALSE(game->play(bad).ok()) << bad;
    }
    EXPECT_EQ(game->fen(), before);
    EXPECT_TRUE(game->moves().empty());
}

TEST(SnidermanGame, WithoutAnObjectTheRoundJustEnds) {
    auto game = game_from("4/4/4/Kq2 1");
    ASSERT_TRUE(game->play("a1xb1").ok());
    const auto outcome = game->outcome();
    ASSERT_TRUE(outcome.has_value());
    EXPECT_FALSE(outcome->winner.has_value());
    EXPECT_EQ(outcome->reason, "round_over");
}

TEST(SnidermanGame, BadOptionsAreErrors) {
    GameOptions options;
    options.object = 11;
    EXPECT_FALSE(core::make_game(VariantId::sniderman, options).ok());
    options.object = 1;
    options.fen = "qbnr/rnbk/KBNR 1";
    const auto game = core::make_game(VariantId::sniderman, options);
    ASSERT_FALSE(game.ok());
    EXPECT_NE(game.error().find("4 ranks"), std::string::npos);
}

TEST(SnidermanGame, CloneIsIndependent) {
    auto game = game_from(std::nullopt, 2);
    auto copy = game->clone();
    ASSERT_TRUE(game->play(game->legal_moves().front()).ok());
    EXPECT_EQ(copy->moves().size(), 0u);
    EXPECT_NE(copy->fen(), game->fen());
}

TEST(SnidermanGame, ObjectCanOnlyBeSetBeforeTheFirstMove) {
    SnidermanGame game(*parse_position(reference_fen), 0);
    EXPECT_TRUE(game.set_object(4));
    EXPECT_EQ(game.object(), 4);
    EXPECT_FALSE(game.set_object(11));
    ASSERT_TRUE(game.play(game.legal_moves().front()).ok());
    EXPECT_FALSE(game.set_object(5));
    EXPECT_EQ(game.object(), 4);
}

}  // namespace
}  // namespace core::sniderman
