// Endings (RULES.md §1): no legal move loses; house rules draw by threefold repetition and by
// 100 plies without capture or drop; the strict rule set has neither.
#include "core/chessence/result.h"

#include <gtest/gtest.h>

#include "chessence_test_support.h"
#include "core/game.h"

namespace {

using namespace chessence_test;

std::unique_ptr<core::Game> new_game(std::optional<std::string> fen = std::nullopt,
                                     core::RuleSet rules = core::RuleSet::house) {
    core::GameOptions options;
    options.rules = rules;
    options.fen = std::move(fen);
    auto game = core::make_game(core::VariantId::chessence, options);
    if (!game) {
        throw std::invalid_argument(game.error());
    }
    return std::move(*game);
}

void play_all(core::Game& game, std::initializer_list<const char*> moves) {
    for (const char* move : moves) {
        const auto played = game.play(move);
        ASSERT_TRUE(played.ok()) << move << ": " << played.error();
    }
}

const std::initializer_list<const char*> shuffle = {"e1-d1", "b9-c9", "d1-e1", "c9-b9"};

TEST(ChessenceResults, ThirdOccurrenceIsADraw) {
    auto game = new_game();
    play_all(*game, shuffle);
    play_all(*game, {"e1-d1", "b9-c9", "d1-e1"});
    EXPECT_FALSE(game->outcome().has_value());
    play_all(*game, {"c9-b9"});
    EXPECT_EQ(game->outcome(), (core::Outcome{std::nullopt, "threefold_repetition"}));
}

TEST(ChessenceResults, StartPositionIsTheFirstOccurrence) {
    auto game = new_game();
    play_all(*game, shuffle);
    // The start position has now occurred twice: not yet a draw.
    EXPECT_FALSE(game->outcome().has_value());
    EXPECT_EQ(game->fen(), "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w 4 3");
}

TEST(ChessenceResults, LoadedPositionIsTheFirstOccurrence) {
    auto game = new_game("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w 30 40");
    play_all(*game, shuffle);
    EXPECT_FALSE(game->outcome().has_value());
    play_all(*game, shuffle);
    EXPECT_EQ(game->outcome()->reason, "threefold_repetition");
}

TEST(ChessenceResults, HundredPliesWithoutCaptureOrDropDraw) {
    auto game = new_game("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w 99 60");
    EXPECT_FALSE(game->outcome().has_value());
    play_all(*game, {"e1-d1"});
    EXPECT_EQ(game->outcome(), (core::Outcome{std::nullopt, "hundred_ply_rule"}));
    EXPECT_TRUE(game->legal_moves().empty());
}

TEST(ChessenceResults, PositionLoadedAtTheHundredPlyLimitIsDrawn) {
    auto game = new_game("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w 100 60");
    EXPECT_EQ(game->outcome(), (core::Outcome{std::nullopt, "hundred_ply_rule"}));
    EXPECT_FALSE(game->play("e1-d1").ok());
}

TEST(ChessenceResults, CaptureOrDropRestartsTheHundredPlyCount) {
    auto game = new_game(fen_of("Kf1 ka9 Mc1 Md1 Mc2 mc4 mc5 mf9 me9", "m", 'w', 99, 70));
    play_all(*game, {"c2xc4"});
    EXPECT_FALSE(game->outcome().has_value());
    EXPECT_NE(game->fen().find(" b 0 70"), std::string::npos) << game->fen();
    play_all(*game, {"e9-d9", "d1-e1"});
    EXPECT_NE(game->fen().find(" b 2 71"), std::string::npos) << game->fen();
    play_all(*game, {"@c8"});
    EXPECT_NE(game->fen().find(" w 0 72"), std::string::npos) << game->fen();
}

TEST(ChessenceResults, PlayerWithoutLegalMovesLoses) {
    auto game = new_game("k5/mm3*/4*1/2*3/1*2*1/3*2/1*4/*5/M4K[] w 0 1");
    EXPECT_FALSE(game->in_check());
    EXPECT_EQ(game->outcome(), (core::Outcome{core::Side::second, "stalemate"}));
    EXPECT_TRUE(game->legal_moves().empty());
}

TEST(ChessenceResults, CheckmateWhenInCheckWithoutLegalMoves) {
    auto game = new_game("k5/5*/4*1/2*3/1*2*1/3*2/1*4/*m4/1m3K[] w 0 1");
    EXPECT_TRUE(game->in_check());
    EXPECT_EQ(game->outcome(), (core::Outcome{core::Side::second, "checkmate"}));
}

TEST(ChessenceResults, NoLegalMoveWinsOverADrawRuleOnTheSamePly) {
    // White's quiet move is the 100th ply without capture or drop, and Black cannot move.
    auto game = new_game(fen_of("Kf1 ka9 Me1 Me2 md9", "", 'w', 99, 80));
    play_all(*game, {"e1-d1"});
    EXPECT_EQ(game->outcome(), (core::Outcome{core::Side::first, "stalemate"}));
    EXPECT_EQ(ending_of(start_position(), false, 3, core::RuleSet::house), Ending::stalemate);
}

TEST(ChessenceResults, StrictRuleSetHasNoDrawRules) {
    auto repeated = new_game(std::nullopt, core::RuleSet::strict);
    play_all(*repeated, shuffle);
    play_all(*repeated, shuffle);
    play_all(*repeated, shuffle);
    EXPECT_FALSE(repeated->outcome().has_value());
    EXPECT_EQ(repeated->legal_moves().size(), 36u);
    auto long_game = new_game("km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w 99 60",
                              core::RuleSet::strict);
    play_all(*long_game, {"e1-d1", "b9-c9"});
    EXPECT_FALSE(long_game->outcome().has_value());
    // A player without a legal move loses under both rule sets.
    EXPECT_EQ(
        new_game("k5/mm3*/4*1/2*3/1*2*1/3*2/1*4/*5/M4K[] w 0 1", core::RuleSet::strict)->outcome(),
        (core::Outcome{core::Side::second, "stalemate"}));
}

TEST(ChessenceResults, ReasonsAreNamedAsTheProtocolNamesThem) {
    EXPECT_EQ(ending_name(Ending::checkmate), "checkmate");
    EXPECT_EQ(ending_name(Ending::stalemate), "stalemate");
    EXPECT_EQ(ending_name(Ending::threefold_repetition), "threefold_repetition");
    EXPECT_EQ(ending_name(Ending::hundred_ply_rule), "hundred_ply_rule");
    EXPECT_EQ(ending_of(start_position(), true, 3, core::RuleSet::strict), Ending::none);
    EXPECT_EQ(ending_of(start_position(), true, 2, core::RuleSet::house), Ending::none);
}

}  // namespace
