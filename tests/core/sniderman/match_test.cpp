#include "core/sniderman/match.h"

#include <gtest/gtest.h>

#include <set>

namespace core::sniderman {
namespace {

Match new_match(int rounds, std::uint64_t seed) {
    auto match = Match::create(rounds, seed);
    EXPECT_TRUE(match.ok());
    return std::move(*match);
}

// Plays the current round to its end, each side taking its first legal capture.
void play_out(Match& match) {
    while (match.phase() == MatchPhase::playing && !match.round().legal_moves().empty()) {
        const int player = *match.to_move_player();
        const auto before = match.records().size();
        ASSERT_TRUE(match.play(player, match.round().legal_moves().front()).ok());
        if (match.records().size() != before) {
            return;  // the round ended and the next one was dealt
        }
    }
}

// Names the first available object and lets the chooser take ODD, then plays the round out.
void play_round(Match& match) {
    const int object = match.available_objects().front();
    ASSERT_TRUE(match.name_object(match.namer(), object).ok());
    ASSERT_TRUE(match.choose_side(match.chooser(), true).ok());
    play_out(match);
}

TEST(SnidermanMatch, RoundsMustBeOddUpToNine) {
    for (const int rounds : {1, 3, 5, 7, 9}) {
        EXPECT_TRUE(Match::create(rounds, 1).ok()) << rounds;
    }
    for (const int rounds : {-1, 0, 2, 4, 10, 11}) {
        EXPECT_FALSE(Match::create(rounds, 1).ok()) << rounds;
    }
}

TEST(SnidermanMatch, CoinTossAndDealComeFromTheSeed) {
    std::set<int> namers;
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const Match a = new_match(3, seed);
        const Match b = new_match(3, seed);
        EXPECT_EQ(a.namer(), b.namer());
        EXPECT_EQ(a.round().fen(), b.round().fen());
        namers.insert(a.namer());
        // The deal is made and shown before the object is named.
        EXPECT_EQ(a.phase(), MatchPhase::naming);
        ASSERT_EQ(a.records().size(), 1u);
        EXPECT_EQ(a.records()[0].start, a.round().fen());
        EXPECT_EQ(a.records()[0].object, 0);
        EXPECT_EQ(a.round().legal_moves().size() > 0, true);
    }
    EXPECT_EQ(namers.size(), 2u);
    EXPECT_NE(new_match(3, 1).round().fen(), new_match(3, 2).round().fen());
}

TEST(SnidermanMatch, WrongPlayerOrPhaseChangesNothing) {
    Match match = new_match(3, 7);
    const int namer = match.namer();
    const int chooser = match.chooser();
    EXPECT_EQ(match.choose_side(chooser, true).error().rfind("wrong phase:", 0), 0u);
    EXPECT_EQ(
        match.play(namer, match.round().legal_moves().front()).error().rfind("wrong phase:", 0),
        0u);
    EXPECT_EQ(match.name_object(chooser, 1).error().rfind("not your turn:", 0), 0u);
    EXPECT_FALSE(match.name_object(namer, 0).ok());
    EXPECT_FALSE(match.name_object(namer, 11).ok());
    EXPECT_FALSE(match.name_object(2, 1).ok());
    EXPECT_EQ(match.phase(), MatchPhase::naming);
    EXPECT_EQ(match.records()[0].object, 0);
    EXPECT_EQ(match.available_objects().size(), 10u);

    ASSERT_TRUE(match.name_object(namer, 3).ok());
    EXPECT_EQ(match.round().outcome(), std::nullopt);
    EXPECT_FALSE(match.name_object(namer, 4).ok());
    EXPECT_EQ(match.choose_side(namer, true).error().rfind("not your turn:", 0), 0u);
    EXPECT_FALSE(match.play(chooser, match.round().legal_moves().front()).ok());
    EXPECT_EQ(match.phase(), MatchPhase::choosing);
    EXPECT_FALSE(match.to_move_player().has_value());

    ASSERT_TRUE(match.choose_side(chooser, false).ok());  // the chooser is EVEN
    EXPECT_EQ(match.records()[0].odd_player, namer);
    EXPECT_EQ(match.to_move_player(), namer);
    EXPECT_EQ(
        match.play(chooser, match.round().legal_moves().front()).error().rfind("not your turn:", 0),
        0u);
    EXPECT_FALSE(match.play(namer, "a1xa1").ok());
    EXPECT_TRUE(match.records()[0].moves.empty());
    const auto played = match.play(namer, match.round().legal_moves().front());
    ASSERT_TRUE(played.ok());
    EXPECT_EQ(match.records()[0].moves, std::vector<std::string>{*played});
    EXPECT_EQ(match.to_move_player(), chooser);
}

TEST(SnidermanMatch, LoserNamesNextAndObjectsAreNotReused) {
    Match match = new_match(9, 3);
    const int first_object = match.available_objects().front();
    play_round(match);
    ASSERT_EQ(match.records().size(), 2u);
    const RoundRecord& done = match.records()[0];
    ASSERT_TRUE(done.winner.has_value());
    EXPECT_EQ(done.object, first_object);
    EXPECT_EQ(match.namer(), 1 - *done.winner);
    EXPECT_EQ(match.phase(), MatchPhase::naming);
    EXPECT_EQ(match.score()[static_cast<std::size_t>(*done.winner)], 1);
    EXPECT_EQ(match.available_objects().size(), 9u);
    const auto reuse = match.name_object(match.namer(), first_object);
    ASSERT_FALSE(reuse.ok());
    EXPECT_EQ(reuse.error().rfind("object used:", 0), 0u);
    EXPECT_NE(match.records()[1].start, "");
    EXPECT_EQ(match.round().fen(), match.records()[1].start);
}

TEST(SnidermanMatch, EndsAsSoonAsAPlayerHasAMajority) {
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
        Match match = new_match(5, seed);
        int rounds = 0;
        while (match.phase() != MatchPhase::finished) {
            play_round(match);
            ++rounds;
            ASSERT_LE(rounds, 5);
        }
        ASSERT_TRUE(match.winner().has_value());
        const auto score = match.score();
        EXPECT_EQ(score[static_cast<std::size_t>(*match.winner())], 3);
        EXPECT_LT(score[static_cast<std::size_t>(1 - *match.winner())], 3);
        EXPECT_EQ(static_cast<int>(match.records().size()), score[0] + score[1]);
        EXPECT_FALSE(match.name_object(match.namer(), match.available_objects().front()).ok());
        std::set<int> objects;
        for (const auto& record : match.records()) {
            objects.insert(record.object);
        }
        EXPECT_EQ(objects.size(), match.records().size());
    }
}

TEST(SnidermanMatch, SameSeedAndCallsGiveTheSameMatch) {
    Match a = new_match(7, 11);
    Match b = new_match(7, 11);
    while (a.phase() != MatchPhase::finished) {
        play_round(a);
        play_round(b);
    }
    ASSERT_EQ(a.records().size(), b.records().size());
    for (std::size_t i = 0; i < a.records().size(); ++i) {
        EXPECT_EQ(a.records()[i].start, b.records()[i].start);
        EXPECT_EQ(a.records()[i].moves, b.records()[i].moves);
        EXPECT_EQ(a.records()[i].winner, b.records()[i].winner);
    }
    EXPECT_EQ(a.score(), b.score());
    const Match copy = a;
    EXPECT_EQ(copy.winner(), a.winner());
    EXPECT_EQ(copy.round().fen(), a.round().fen());
}

}  // namespace
}  // namespace core::sniderman
