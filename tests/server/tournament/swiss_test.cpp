#include "server/tournament/swiss.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/tournament/swiss_standings.h"

namespace swiss_machine_test {

using core::Side;
using protocol::ClockKind;
using protocol::TimeControl;
using namespace server::tournament;

constexpr SwissTime start = 10'000'000;
constexpr std::int64_t interval = 60'000;

SwissConfig swiss_config(int rounds = 5) {
    SwissConfig c;
    c.starts_at = start;
    c.rounds = rounds;
    c.round_interval_ms = interval;
    c.clock = TimeControl{ClockKind::real_time, 180, 2, 0};
    return c;
}

struct Swiss {
    SwissState state;

    explicit Swiss(const SwissConfig& c = swiss_config()) : state(new_swiss(c)) {}

    // Decides `input` at `now` and applies its events; the test fails on a refusal.
    std::vector<SwissEvent> run(const SwissInput& input, SwissTime now) {
        const SwissDecision decision = decide(state, input, now);
        EXPECT_TRUE(decision.ok()) << (decision.refusal ? decision.refusal->message : "");
        for (const auto& event : decision.events) {
            const core::Status applied = apply(state, event);
            EXPECT_TRUE(applied.ok()) << (applied.ok() ? "" : applied.error());
        }
        return decision.events;
    }
    // The refusal's code; the test fails unless refused with no event and nothing changed.
    std::string refused(const SwissInput& input, SwissTime now) {
        const SwissState before = state;
        const SwissDecision decision = decide(state, input, now);
        EXPECT_FALSE(decision.ok());
        EXPECT_TRUE(decision.events.empty());
        EXPECT_EQ(state, before);
        return decision.refusal ? std::string(swiss_error_name(decision.refusal->code)) : "";
    }
    void join(const std::string& id, int rating, SwissTime now = start - 1000) {
        run(swiss_input::Join{id, rating, false}, now);
    }
    // The round paired by a pass over `present` at `now` (the test fails without one).
    swiss_event::RoundPaired pass(const std::vector<std::string>& present, SwissTime now) {
        for (const auto& event : run(swiss_input::RoundPass{present}, now)) {
            if (const auto* paired = std::get_if<swiss_event::RoundPaired>(&event)) {
                return *paired;
            }
        }
        ADD_FAILURE() << "no round paired";
        return {};
    }
    const SwissRound& round_of(const std::string& id, int round) const {
        return state.players.at(id).rounds.at(static_cast<std::size_t>(round) - 1);
    }
};

TEST(SwissMachine, ConfigLimits) {
    EXPECT_TRUE(check_config(swiss_config()).ok());
    EXPECT_FALSE(check_config(swiss_config(2)).ok());
    EXPECT_FALSE(check_config(swiss_config(16)).ok());
    auto c = swiss_config();
    c.round_interval_ms = 9'999;
    EXPECT_FALSE(check_config(c).ok());
    c.round_interval_ms = 24 * 3'600'000 + 1;
    EXPECT_FALSE(check_config(c).ok());
    c.round_interval_ms = 24 * 3'600'000;
    EXPECT_TRUE(check_config(c).ok());
    c.clock = TimeControl{ClockKind::correspondence, 0, 0, 3};
    EXPECT_TRUE(check_config(c).ok());
    c.clock = TimeControl{};
    EXPECT_FALSE(check_config(c).ok());
}

TEST(SwissMachine, JoinRefusalsChangeNothing) {
    Swiss s;
    s.join("a", 1500);
    EXPECT_EQ(s.refused(swiss_input::Join{"", 1500, false}, start), "bad_field");
    EXPECT_EQ(s.refused(swiss_input::Join{"b", 5000, false}, start), "bad_field");
    EXPECT_EQ(s.refused(swiss_input::Join{"a", 1500, false}, start), "already_joined");
    EXPECT_EQ(s.refused(swiss_input::Join{"bot", 1500, true}, start), "bots_not_allowed");
    EXPECT_EQ(s.refused(swiss_input::Withdraw{"b"}, start), "not_joined");
    s.join("b", 1400);
    s.join("c", 1300);
    // Before the first round a withdrawal leaves; afterwards it withdraws.
    const auto left = s.run(swiss_input::Withdraw{"c"}, start - 10);
    ASSERT_EQ(left.size(), 1u);
    EXPECT_TRUE(std::holds_alternative<swiss_event::Left>(left[0]));
    EXPECT_FALSE(s.state.players.count("c"));
    s.pass({"a", "b"}, start);
    const auto withdrew = s.run(swiss_input::Withdraw{"b"}, start + 10);
    ASSERT_EQ(withdrew.size(), 1u);
    EXPECT_TRUE(std::holds_alternative<swiss_event::Withdrew>(withdrew[0]));
    EXPECT_EQ(s.refused(swiss_input::Join{"b", 1400, false}, start + 20), "withdrawn");
    EXPECT_EQ(s.refused(swiss_input::Withdraw{"b"}, start + 20), "not_joined");
}

TEST(SwissMachine, BotsJoinWhenAllowed) {
    auto c = swiss_config();
    c.bots_allowed = true;
    Swiss s(c);
    s.run(swiss_input::Join{"bot", 1500, true}, start - 10);
    EXPECT_TRUE(s.state.players.at("bot").bot);
}

TEST(SwissMachine, LateJoinUntilHalfTheRoundsArePaired) {
    Swiss s;  // 5 rounds: joining is open while 0, 1 or 2 rounds have been paired
    for (const char* id : {"a", "b", "c", "d"}) {
        s.join(id, 1500);
    }
    SwissTime now = start;
    for (int round = 1; round <= 3; ++round) {
        const auto paired = s.pass({"a", "b", "c", "d", "e", "f"}, now);
        EXPECT_EQ(paired.round, round);
        for (const auto& game : paired.games) {
            s.run(swiss_input::GameFinished{game.game, Side::first}, now + 2);
        }
        if (round == 2) {
            EXPECT_TRUE(late_join_open(s.state));
            s.join("e", 1400, now + 3);
            s.join("f", 1300, now + 3);
            // The late joiners were absent from rounds 1 and 2.
            EXPECT_EQ(s.state.players.at("e").rounds.size(), 2u);
            EXPECT_EQ(s.round_of("e", 1).kind, SwissRoundKind::absent);
            EXPECT_EQ(s.round_of("f", 2).kind, SwissRoundKind::absent);
        }
        now += 2 + interval;
    }
    EXPECT_FALSE(late_join_open(s.state));
    EXPECT_EQ(s.refused(swiss_input::Join{"g", 1500, false}, now), "late_join_closed");
    // The late joiners played round 3.
    EXPECT_EQ(s.round_of("e", 3).kind, SwissRoundKind::played);
    EXPECT_EQ(s.round_of("f", 3).kind, SwissRoundKind::played);
}

TEST(SwissMachine, RoundsAreDueAtTheStartThenAfterTheLastGamePlusTheInterval) {
    Swiss s;
    for (const char* id : {"a", "b", "c"}) {
        s.join(id, 1500);
    }
    EXPECT_EQ(next_deadline(s.state), start);
    EXPECT_FALSE(round_due(s.state, start - 1));
    EXPECT_TRUE(s.run(swiss_input::RoundPass{{"a", "b", "c"}}, start - 1).empty());
    EXPECT_TRUE(round_due(s.state, start));
    const auto paired = s.pass({"a", "b", "c"}, start);
    ASSERT_EQ(paired.games.size(), 1u);
    ASSERT_TRUE(paired.bye);
    EXPECT_EQ(s.round_of(*paired.bye, 1).half_points, 2);
    EXPECT_EQ(next_deadline(s.state), std::nullopt);
    EXPECT_FALSE(round_due(s.state, start + 10 * interval));
    s.run(swiss_input::GameStarted{paired.games[0].game, "g1"}, start + 5);
    EXPECT_EQ(s.refused(swiss_input::GameStarted{paired.games[0].game, "g1"}, start + 6),
              "game_already_started");
    EXPECT_EQ(s.refused(swiss_input::GameStarted{99, "g9"}, start + 6), "no_such_game");
    s.run(swiss_input::GameFinished{paired.games[0].game, std::nullopt}, start + 1000);
    EXPECT_EQ(next_deadline(s.state), start + 1000 + interval);
    EXPECT_FALSE(round_due(s.state, start + 999 + interval));
    EXPECT_TRUE(round_due(s.state, start + 1000 + interval));
    EXPECT_EQ(s.round_of(paired.games[0].first, 1).half_points, 1);
    EXPECT_EQ(s.refused(swiss_input::GameFinished{paired.games[0].game, std::nullopt}, start),
              "no_such_game");
}

TEST(SwissMachine, AbsentPlayersScoreNothingForTheRound) {
    Swiss s;
    for (const char* id : {"a", "b", "c"}) {
        s.join(id, 1500);
    }
    const auto paired = s.pass({"a", "b"}, start);
    EXPECT_FALSE(paired.bye);
    ASSERT_EQ(paired.games.size(), 1u);
    EXPECT_EQ(s.round_of("c", 1).kind, SwissRoundKind::absent);
    EXPECT_EQ(s.round_of("c", 1).half_points, 0);
}

TEST(SwissMachine, FewerThanTwoPlayersAtTheStartFinishEarly) {
    Swiss s;
    s.join("a", 1500);
    EXPECT_TRUE(decide_time(s.state, start - 1).empty());
    const auto events = decide_time(s.state, start);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(std::get<swiss_event::Finished>(events[0]), (swiss_event::Finished{start, true}));
    s.run(swiss_input::RoundPass{{"a"}}, start);
    EXPECT_TRUE(s.state.finished);
    EXPECT_EQ(next_deadline(s.state), std::nullopt);
    EXPECT_EQ(s.refused(swiss_input::Join{"b", 1500, false}, start), "tournament_finished");
}

TEST(SwissMachine, NoPairingPossibleFinishesEarly) {
    Swiss s(swiss_config(3));
    s.join("a", 1600);
    s.join("b", 1500);
    const auto first = s.pass({"a", "b"}, start);
    s.run(swiss_input::GameFinished{first.games[0].game, Side::first}, start + 10);
    // a and b met: round 2 cannot be paired.
    const auto events = s.run(swiss_input::RoundPass{{"a", "b"}}, start + 10 + interval);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(std::get<swiss_event::Finished>(events[0]),
              (swiss_event::Finished{start + 10 + interval, true}));
}

TEST(SwissMachine, AMissedFirstMoveIsAForfeitAndAWithdrawal) {
    Swiss s;
    for (const char* id : {"a", "b", "c", "d"}) {
        s.join(id, 1500);
    }
    const auto paired = s.pass({"a", "b", "c", "d"}, start);
    const auto& game = paired.games[0];
    const auto events = s.run(swiss_input::FirstMoveMissed{game.game, Side::second}, start + 5);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(std::get<swiss_event::Withdrew>(events[1]).player, game.second);
    EXPECT_EQ(s.round_of(game.first, 1).kind, SwissRoundKind::forfeit);
    EXPECT_EQ(s.round_of(game.first, 1).half_points, 2);
    EXPECT_EQ(s.round_of(game.second, 1).half_points, 0);
    EXPECT_EQ(s.state.players.at(game.second).status, SwissStatus::withdrawn);
    // A forfeit win is not a game over the board: no opponent in the tie-breaks.
    const auto sheets = swiss_sheets(s.state);
    ASSERT_EQ(sheets.at(game.first).size(), 1u);
    EXPECT_FALSE(sheets.at(game.first)[0].opponent);
}

TEST(SwissMachine, ACancelledGameIsAnAbsenceForBoth) {
    Swiss s;
    s.join("a", 1600);
    s.join("b", 1500);
    const auto paired = s.pass({"a", "b"}, start);
    s.run(swiss_input::GameCancelled{paired.games[0].game}, start + 5);
    EXPECT_EQ(s.round_of("a", 1).kind, SwissRoundKind::absent);
    EXPECT_FALSE(s.round_of("a", 1).opponent);
    EXPECT_EQ(next_deadline(s.state), start + 5 + interval);
    // They never played: they may meet in round 2.
    EXPECT_EQ(s.pass({"a", "b"}, start + 5 + interval).games.size(), 1u);
}

TEST(SwissMachine, SnidermanHasNoDraws) {
    auto c = swiss_config();
    c.variant = core::VariantId::sniderman;
    Swiss s(c);
    s.join("a", 1600);
    s.join("b", 1500);
    const auto paired = s.pass({"a", "b"}, start);
    EXPECT_EQ(s.refused(swiss_input::GameFinished{paired.games[0].game, std::nullopt}, start + 5),
              "no_draws");
}

TEST(SwissMachine, ApplyRefusesEventsThatDoNotFit) {
    Swiss s;
    s.join("a", 1600);
    const SwissState before = s.state;
    EXPECT_FALSE(apply(s.state, swiss_event::Joined{"a", 1500, false}).ok());
    EXPECT_FALSE(apply(s.state, swiss_event::RoundPaired{2, {}, std::nullopt, start}).ok());
    EXPECT_FALSE(
        apply(s.state, swiss_event::RoundPaired{1, {{1, "a", "zed"}}, std::nullopt, start}).ok());
    EXPECT_FALSE(apply(s.state, swiss_event::GameFinished{7, Side::first, false, start}).ok());
    EXPECT_EQ(s.state, before);
}

TEST(SwissMachine, ErrorNamesAreStable) {
    EXPECT_EQ(swiss_error_name(SwissErrorCode::late_join_closed), "late_join_closed");
    EXPECT_EQ(swiss_error_name(SwissErrorCode::already_joined), "already_joined");
    EXPECT_EQ(swiss_error_name(SwissErrorCode::tournament_finished), "tournament_finished");
    EXPECT_EQ(swiss_error_name(SwissErrorCode::no_draws), "no_draws");
}

}  // namespace swiss_machine_test
