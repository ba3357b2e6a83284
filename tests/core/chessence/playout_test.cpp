#include "core/chessence/playout.h"

#include <gtest/gtest.h>

#include "chessence_test_support.h"
#include "core/game.h"

namespace {

using namespace chessence_test;

TEST(ChessencePlayout, HouseRulePlayoutsEndAndAgreeWithTheGame) {
    // Replaying a playout's moves through core::Game must reach the same ending: the fast
    // hash-based repetition window against the game's exact position comparison.
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        Rng rng(seed);
        const PlayoutResult result =
            random_playout(start_position(), core::RuleSet::house, rng, 100000);
        ASSERT_NE(result.ending, Ending::none);
        Rng replay(seed);
        auto made = core::make_game(core::VariantId::chessence);
        ASSERT_TRUE(made.ok());
        auto game = std::move(*made);
        Position p = start_position();
        LegalTargets legal;
        for (int ply = 0; ply < result.plies; ++ply) {
            legal.fill(p);
            const Move move = legal.move_at(
                static_cast<int>(replay.below(static_cast<std::uint32_t>(legal.total()))));
            ASSERT_TRUE(game->play(move_notation(move)).ok());
            make_move(p, move);
        }
        const auto outcome = game->outcome();
        ASSERT_TRUE(outcome.has_value()) << "seed " << seed;
        EXPECT_EQ(outcome->reason, ending_name(result.ending)) << "seed " << seed;
        const auto expected_winner =
            result.winner
                ? std::optional<core::Side>(result.winner == Colour::white ? core::Side::first
                                                                           : core::Side::second)
                : std::nullopt;
        EXPECT_EQ(outcome->winner, expected_winner);
    }
}

TEST(ChessencePlayout, SameSeedSameGame) {
    Rng a(77);
    Rng b(77);
    const auto first = random_playout(start_position(), core::RuleSet::house, a, 100000);
    const auto second = random_playout(start_position(), core::RuleSet::house, b, 100000);
    EXPECT_EQ(first.plies, second.plies);
    EXPECT_EQ(first.ending, second.ending);
}

TEST(ChessencePlayout, PlayoutStopsAtThePlyLimit) {
    Rng rng(3);
    const auto result = random_playout(start_position(), core::RuleSet::strict, rng, 6);
    EXPECT_EQ(result.ending, Ending::none);
    EXPECT_EQ(result.plies, 6);
    EXPECT_FALSE(result.winner.has_value());
}

TEST(ChessencePlayout, RngStaysInRange) {
    Rng rng(0);
    for (std::uint32_t n = 1; n < 200; ++n) {
        EXPECT_LT(rng.below(n), n);
    }
}

}  // namespace
