// Rule 5 of RULES.md §2: no move may create the third occurrence of a position in the game.
#include "core/chesica/legal.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/chesica/fen.h"
#include "core/chesica/movegen.h"
#include "tests/core/chesica/chesica_test_helpers.h"

using chesica_test::contains;
using chesica_test::game_from;
using chesica_test::play_all;

namespace {

// Two promoted Rooks in opposite corners: every move is reversible.
constexpr const char* shuffle_fen = "7+r/8/8/8/8/8/8/+R7 w 0 1";
const chesica_test::Moves there_and_back{"a1-a2", "h8-h7", "a2-a1", "h7-h8"};

}  // namespace

TEST(ChesicaRepetition, SecondOccurrenceIsAllowed) {
    auto game = game_from(shuffle_fen);
    play_all(*game, there_and_back);
    EXPECT_EQ(game->fen(), "7+r/8/8/8/8/8/8/+R7 w 4 3");
    EXPECT_TRUE(contains(game->legal_moves(), "a1-a2"));
}

TEST(ChesicaRepetition, ThirdOccurrenceIsForbidden) {
    // The start position counts as the first occurrence; h7-h8 would make the third.
    auto game = game_from(shuffle_fen);
    play_all(*game, there_and_back);
    play_all(*game, {"a1-a2", "h8-h7", "a2-a1"});
    const auto moves = game->legal_moves();
    EXPECT_FALSE(contains(moves, "h7-h8"));
    EXPECT_TRUE(contains(moves, "h7-g8"));
    const auto refused = game->play("h7-h8");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("third occurrence"), std::string::npos) << refused.error();
    EXPECT_EQ(game->moves().size(), 7u);
}

TEST(ChesicaRepetition, OccurrencesAreCountedInTheWholeGameNotInARow) {
    // a1-a2-a3-a2-a1 and back again: the start position's returns are not consecutive plies of
    // the same shuffle, but they still count.
    auto game = game_from(shuffle_fen);
    play_all(*game, {"a1-a2", "h8-h7", "a2-a3", "h7-h6", "a3-a2", "h6-h7", "a2-a1", "h7-h8"});
    play_all(*game, {"a1-b1", "h8-g8", "b1-a1"});
    EXPECT_FALSE(contains(game->legal_moves(), "g8-h8"));
}

TEST(ChesicaRepetition, BanCanLeaveNoLegalMoveAndThatLoses) {
    // Black's only mobile piece is the Rook on a2, which can only step to b2 and back.
    auto game = game_from("7+R/8/8/8/8/8/r1b5/bbbb4 w 0 1");
    play_all(*game, {"h8-h7", "a2-b2", "h7-h8", "b2-a2", "h8-h7", "a2-b2", "h7-h8"});
    EXPECT_TRUE(game->legal_moves().empty());
    ASSERT_TRUE(game->outcome().has_value());
    EXPECT_EQ(game->outcome()->winner, core::Side::first);
    EXPECT_EQ(game->outcome()->reason, "no_legal_moves");
}

TEST(ChesicaRepetition, LoadedPositionIsTheFirstOccurrence) {
    // The same shuffle from a loaded mid-game position: its loading counts once.
    auto game = game_from("7+r/8/8/8/8/8/8/+R7 w 30 40");
    play_all(*game, there_and_back);
    play_all(*game, {"a1-a2", "h8-h7", "a2-a1"});
    EXPECT_FALSE(contains(game->legal_moves(), "h7-h8"));
}

TEST(ChesicaRepetition, TypedCheckSeesOnlySamePlacementAndSide) {
    using namespace core::chesica;
    std::vector<Position> history{*parse_fen(shuffle_fen)};
    // Walk the shuffle by hand; every move of it is reversible.
    for (const char* step : {"a1a2", "h8h7", "a2a1", "h7h8", "a1a2", "h8h7", "a2a1", "h7h8"}) {
        const Square from = make_square(step[0] - 'a', step[1] - '1');
        const Square to = make_square(step[2] - 'a', step[3] - '1');
        MoveList list;
        generate_legal_moves(history, list);
        const Move* found = nullptr;
        for (const Move& m : list) {
            if (m.from == from && m.to == to) {
                found = &m;
            }
        }
        if (history.size() == 8) {
            EXPECT_EQ(found, nullptr) << "the eighth ply recreates the start a third time";
            Position child = history.back();
            Move m{0,
                   static_cast<std::uint8_t>(from),
                   static_cast<std::uint8_t>(to),
                   MoveType::step,
                   0,
                   {}};
            make_move(child, m);
            EXPECT_EQ(child.reversible_plies, 8);
            EXPECT_TRUE(is_third_occurrence(child, history));
            break;
        }
        ASSERT_NE(found, nullptr) << step;
        Position child = history.back();
        make_move(child, *found);
        EXPECT_FALSE(is_third_occurrence(child, history));
        history.push_back(child);
    }
}
