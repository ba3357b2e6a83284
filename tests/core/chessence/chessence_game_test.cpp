// core::Game for Chessence: notation strings, sorted legal moves, board view, perft and divide.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "chessence_test_support.h"
#include "core/chessence/perft.h"
#include "core/game.h"

namespace {

using namespace chessence_test;

std::unique_ptr<core::Game> new_game(std::optional<std::string> fen = std::nullopt) {
    core::GameOptions options;
    options.fen = std::move(fen);
    auto game = core::make_game(core::VariantId::chessence, options);
    if (!game) {
        throw std::invalid_argument(game.error());
    }
    return std::move(*game);
}

TEST(ChessenceGame, StartsFromTheStartPosition) {
    auto game = new_game();
    EXPECT_EQ(game->variant(), core::VariantId::chessence);
    EXPECT_EQ(game->rules(), core::RuleSet::house);
    EXPECT_EQ(game->fen(), start_position_string);
    EXPECT_EQ(game->start_fen(), start_position_string);
    EXPECT_EQ(game->to_move(), core::Side::first);
    EXPECT_TRUE(game->moves().empty());
    EXPECT_FALSE(game->in_check());
    EXPECT_FALSE(game->outcome().has_value());
    EXPECT_EQ(game->legal_moves().size(), 36u);
}

TEST(ChessenceGame, LegalMovesAreSortedAndCanonical) {
    auto game = new_game(fen_of("Kf1 ka9 Mc1 Mc2 mc4 mc5", "M"));
    const auto moves = game->legal_moves();
    EXPECT_TRUE(std::is_sorted(moves.begin(), moves.end()));
    EXPECT_EQ(std::adjacent_find(moves.begin(), moves.end()), moves.end());
    EXPECT_NE(std::find(moves.begin(), moves.end(), "c2xc4"), moves.end());
    EXPECT_EQ(std::find(moves.begin(), moves.end(), "c2-c4"), moves.end());
    EXPECT_NE(std::find(moves.begin(), moves.end(), "@e1"), moves.end());
    EXPECT_EQ(moves, legal_names(position_of(game->fen())));
}

TEST(ChessenceGame, PlayAnswersWithCanonicalNotation) {
    auto game = new_game(fen_of("Kf1 ka9 Mc1 Mc2 mc4 mc5"));
    const auto played = game->play("c2-c4");
    ASSERT_TRUE(played.ok()) << played.error();
    EXPECT_EQ(*played, "c2xc4");
    EXPECT_EQ(game->moves(), (std::vector<std::string>{"c2xc4"}));
    EXPECT_EQ(game->to_move(), core::Side::second);
    EXPECT_NE(game->start_fen(), game->fen());
}

TEST(ChessenceGame, RefusedMoveChangesNothing) {
    auto game = new_game();
    for (const char* move : {"e3-e5", "nonsense", "c7-d7", "@e1", "d3-d4"}) {
        const auto played = game->play(move);
        EXPECT_FALSE(played.ok()) << move;
        EXPECT_FALSE(played.ok() ? false : played.error().empty());
    }
    EXPECT_EQ(game->fen(), start_position_string);
    EXPECT_TRUE(game->moves().empty());
}

TEST(ChessenceGame, FinishedGameRefusesMoves) {
    auto game = new_game("k5/mm3*/4*1/2*3/1*2*1/3*2/1*4/*5/M4K[] w 0 1");
    const auto played = game->play("a1-b1");
    ASSERT_FALSE(played.ok());
    EXPECT_NE(played.error().find("the game is over"), std::string::npos);
    EXPECT_TRUE(game->legal_moves().empty());
    EXPECT_EQ(game->perft(2), 0u);
    EXPECT_TRUE(game->divide(2).empty());
}

TEST(ChessenceGame, BadPositionStringIsAnError) {
    core::GameOptions options;
    options.fen = "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMM] w 0 1";
    const auto game = core::make_game(core::VariantId::chessence, options);
    ASSERT_FALSE(game.ok());
    EXPECT_NE(game.error().find("at most 3"), std::string::npos) << game.error();
}

TEST(ChessenceGame, BoardViewShowsMenKingsMissingSquaresAndReserves) {
    auto game = new_game(fen_of("Kf1 ka9 Md2 mc8", "MMm"));
    const core::BoardView view = game->board();
    EXPECT_EQ(view.files, 6);
    EXPECT_EQ(view.ranks, 9);
    ASSERT_EQ(view.squares.size(), 54u);
    EXPECT_EQ(view.squares[make_square(5, 0)], "K");
    EXPECT_EQ(view.squares[make_square(0, 8)], "k");
    EXPECT_EQ(view.squares[make_square(3, 1)], "M");
    EXPECT_EQ(view.squares[make_square(2, 7)], "m");
    EXPECT_EQ(view.squares[make_square(0, 1)], "*");
    EXPECT_EQ(view.squares[make_square(0, 0)], "");
    EXPECT_EQ(std::count(view.squares.begin(), view.squares.end(), "*"), 8);
    EXPECT_EQ(view.reserves, (std::array<int, 2>{2, 1}));
}

TEST(ChessenceGame, CloneIsIndependent) {
    auto game = new_game();
    ASSERT_TRUE(game->play("e1-d1").ok());
    auto copy = game->clone();
    ASSERT_TRUE(copy->play("b9-c9").ok());
    EXPECT_EQ(game->moves().size(), 1u);
    EXPECT_EQ(copy->moves().size(), 2u);
    EXPECT_EQ(copy->start_fen(), start_position_string);
}

TEST(ChessenceGame, DivideListsLegalMovesAndSumsToPerft) {
    auto game = new_game();
    const auto divided = game->divide(3);
    std::vector<std::string> names;
    std::uint64_t sum = 0;
    for (const auto& [name, nodes] : divided) {
        names.push_back(name);
        sum += nodes;
    }
    EXPECT_EQ(names, game->legal_moves());
    EXPECT_EQ(sum, 46194u);
    EXPECT_EQ(game->perft(3), 46194u);
    EXPECT_EQ(game->perft(0), 1u);
}

TEST(ChessenceGame, PerftCountsThePureMoveTree) {
    // One ply before the 100-ply draw: the draw ends no line inside perft.
    auto game = new_game("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w 99 60");
    EXPECT_EQ(game->perft(3), 46194u);
}

TEST(ChessenceGame, InCheckFollowsThePosition) {
    auto game = new_game("k5/5*/4*1/2*3/1*2*1/3*2/1*M3/*m1M2/1m3K[] w 0 1");
    EXPECT_TRUE(game->in_check());
    EXPECT_EQ(game->legal_moves(), (std::vector<std::string>{"c3xb2", "d2-c1", "d2-e1"}));
    ASSERT_TRUE(game->play("c3xb2").ok());
    EXPECT_FALSE(game->in_check());
}

}  // namespace
