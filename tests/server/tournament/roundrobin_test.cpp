#include "server/tournament/roundrobin.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "server/tournament/roundrobin_standings.h"

namespace roundrobin_machine_test {

using core::Side;
using protocol::ClockKind;
using protocol::TimeControl;
using namespace server::tournament;
namespace in = roundrobin_input;
namespace ev = roundrobin_event;

constexpr RoundRobinTime rr_start = 50'000'000;
constexpr std::int64_t hour = 3'600'000;

RoundRobinConfig rr_config(bool double_round = false, int max_players = 16) {
    RoundRobinConfig c;
    c.starts_at = rr_start;
    c.double_round = double_round;
    c.game_deadline_ms = hour;
    c.clock = TimeControl{ClockKind::real_time, 300, 3, 0};
    c.max_players = max_players;
    return c;
}

struct RoundRobin {
    RoundRobinState state;

    explicit RoundRobin(const RoundRobinConfig& c = rr_config()) : state(new_round_robin(c)) {}

    // Decides `input` at `now` and applies its events; the test fails on a refusal.
    std::vector<RoundRobinEvent> run(const RoundRobinInput& input, RoundRobinTime now) {
        const RoundRobinDecision decision = decide(state, input, now);
        EXPECT_TRUE(decision.ok()) << (decision.refusal ? decision.refusal->message : "");
        apply_all(decision.events);
        return decision.events;
    }
    void apply_all(const std::vector<RoundRobinEvent>& events) {
        for (const auto& event : events) {
            const core::Status applied = apply(state, event);
            EXPECT_TRUE(applied.ok()) << (applied.ok() ? "" : applied.error());
        }
    }
    // The refusal's name; the test fails unless `input` is refused with no event and the state
    // is as it was.
    std::string refused(const RoundRobinInput& input, RoundRobinTime now) {
        const RoundRobinState before = state;
        const RoundRobinDecision decision = decide(state, input, now);
        EXPECT_FALSE(decision.ok());
        EXPECT_TRUE(decision.events.empty());
        EXPECT_EQ(state, before);
        return decision.refusal ? std::string(roundrobin_error_name(decision.refusal->code)) : "";
    }
    void join(const std::string& id, int rating) {
        run(in::Join{id, rating, false}, rr_start - 60'000);
    }
    // The start, applied.
    std::vector<RoundRobinEvent> start(RoundRobinTime now = rr_start) {
        const auto events = decide_time(state, now);
        apply_all(events);
        return events;
    }
    // The games a ready pass with `present` puts players in at `now`, and the other events.
    std::vector<int> pass(const std::vector<std::string>& present, RoundRobinTime now,
                          std::vector<RoundRobinEvent>* others = nullptr) {
        std::vector<int> games;
        for (const auto& event : run(in::ReadyPass{present}, now)) {
            if (const auto* paired = std::get_if<ev::Paired>(&event)) {
                games.push_back(paired->game);
            } else if (others) {
                others->push_back(event);
            }
        }
        return games;
    }
    const RoundRobinGame& game(int number) const {
        return state.games.at(static_cast<std::size_t>(number - 1));
    }
};

// (first, second) of every game, by starting number.
std::vector<std::pair<int, int>> rr_pairs(const RoundRobin& rr) {
    std::vector<std::pair<int, int>> out;
    for (const auto& game : rr.state.games) {
        out.emplace_back(rr.state.players.at(game.first).number,
                         rr.state.players.at(game.second).number);
    }
    return out;
}

TEST(TournamentRoundRobin, StartFixesTheBergerScheduleWithDeadlines) {
    RoundRobin rr(rr_config(true));
    for (const char* id : {"p1", "p2", "p3", "p4", "p5"}) {
        rr.join(id, 1500);
    }
    EXPECT_EQ(next_deadline(rr.state), rr_start);
    EXPECT_TRUE(decide_time(rr.state, rr_start - 1).empty());
    const auto events = rr.start();
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(std::get<ev::Started>(events[0]),
              (ev::Started{{"p1", "p2", "p3", "p4", "p5"}, rr_start}));
    const std::vector<std::pair<int, int>> expected = {
        {2, 5}, {3, 4}, {5, 3}, {1, 2}, {3, 1}, {4, 5}, {1, 4}, {2, 3}, {4, 2}, {5, 1},
        {5, 2}, {4, 3}, {3, 5}, {2, 1}, {1, 3}, {5, 4}, {4, 1}, {3, 2}, {2, 4}, {1, 5}};
    EXPECT_EQ(rr_pairs(rr), expected);
    EXPECT_EQ(rr.game(1).round, 1);
    EXPECT_EQ(rr.game(1).deadline, rr_start + hour);
    EXPECT_EQ(rr.game(20).round, 10);
    EXPECT_EQ(rr.game(20).deadline, rr_start + 10 * hour);
    EXPECT_EQ(next_deadline(rr.state), rr_start + hour);
}

TEST(TournamentRoundRobin, FewerThanThreeAtTheStartCancels) {
    RoundRobin rr;
    rr.join("a", 1500);
    rr.join("b", 1500);
    rr.run(in::Join{"c", 1500, false}, rr_start - 10);
    rr.run(in::Withdraw{"c"}, rr_start - 5);
    EXPECT_EQ(rr.state.players.size(), 2u);
    EXPECT_EQ(rr.start(), (std::vector<RoundRobinEvent>{ev::Finished{rr_start, true}}));
    EXPECT_TRUE(rr.state.finished);
    EXPECT_TRUE(rr.state.cancelled);
    EXPECT_TRUE(rr.state.games.empty());
    EXPECT_EQ(next_deadline(rr.state), std::nullopt);
    EXPECT_EQ(rr.refused(in::Join{"d", 1500, false}, rr_start + 1), "tournament_finished");
}

TEST(TournamentRoundRobin, RefusalsChangeNothing) {
    RoundRobin rr(rr_config(false, 4));
    EXPECT_EQ(rr.refused(in::Join{"", 1500, false}, rr_start - 10), "bad_field");
    EXPECT_EQ(rr.refused(in::Join{"a", -1, false}, rr_start - 10), "bad_field");
    EXPECT_EQ(rr.refused(in::Join{"bot", 1500, true}, rr_start - 10), "bots_not_allowed");
    for (const char* id : {"a", "b", "c", "d"}) {
        rr.join(id, 1500);
    }
    EXPECT_EQ(rr.refused(in::Join{"a", 1500, false}, rr_start - 10), "already_joined");
    EXPECT_EQ(rr.refused(in::Join{"e", 1500, false}, rr_start - 10), "tournament_full");
    EXPECT_EQ(rr.refused(in::Withdraw{"z"}, rr_start - 10), "not_joined");
    EXPECT_EQ(rr.refused(in::GameFinished{1, Side::first}, rr_start - 10), "no_such_game");
    // The start has come but was not applied yet: the schedule is fixed all the same.
    EXPECT_EQ(rr.refused(in::Join{"e", 1500, false}, rr_start), "already_started");
    rr.start();
    EXPECT_EQ(rr.refused(in::Join{"e", 1500, false}, rr_start + 1), "already_started");
    EXPECT_EQ(rr.refused(in::GameStarted{1, "g1"}, rr_start + 1), "no_such_game");
    EXPECT_EQ(rr.refused(in::GameFinished{99, std::nullopt}, rr_start + 1), "no_such_game");
    ASSERT_EQ(rr.pass({"a", "b", "c", "d"}, rr_start + 1), (std::vector<int>{1, 2}));
    EXPECT_EQ(rr.refused(in::GameStarted{1, ""}, rr_start + 2), "bad_field");
    rr.run(in::GameStarted{1, "g1"}, rr_start + 2);
    EXPECT_EQ(rr.game(1).game_id, "g1");
    EXPECT_EQ(rr.refused(in::GameStarted{1, "g1b"}, rr_start + 3), "game_already_started");
    EXPECT_EQ(rr.refused(in::GameFinished{3, Side::first}, rr_start + 3), "no_such_game");
    // An event that does not fit leaves the state as it was.
    const RoundRobinState before = rr.state;
    EXPECT_FALSE(apply(rr.state, ev::Paired{1, rr_start}).ok());
    EXPECT_FALSE(apply(rr.state, ev::Forfeited{1, Side::first}).ok());
    EXPECT_FALSE(apply(rr.state, ev::Joined{"late", 1500, false}).ok());
    EXPECT_FALSE(apply(rr.state, ev::Finished{rr_start, false}).ok());
    EXPECT_EQ(rr.state, before);
}

TEST(TournamentRoundRobin, SnidermanHasNoDraws) {
    RoundRobinConfig c = rr_config();
    c.variant = core::VariantId::sniderman;
    RoundRobin rr(c);
    for (const char* id : {"a", "b", "c"}) {
        rr.join(id, 1500);
    }
    rr.start();
    ASSERT_EQ(rr.pass({"a", "b", "c"}, rr_start + 1), (std::vector<int>{1}));
    EXPECT_EQ(rr.refused(in::GameFinished{1, std::nullopt}, rr_start + 2), "no_draws");
    rr.run(in::GameFinished{1, Side::second}, rr_start + 2);
    EXPECT_EQ(rr.game(1).state, RoundRobinGameState::finished);
}

// No fixed rounds: a later game starts while an earlier one waits for a player; among the
// games that could start, the lowest round goes first.
TEST(TournamentRoundRobin, ReadyPassStartsLowestRoundFirst) {
    RoundRobin rr;
    for (const char* id : {"p1", "p2", "p3", "p4", "p5", "p6"}) {
        rr.join(id, 1500);
    }
    rr.start();
    // Round 1: 1-6, 2-5, 3-4; round 2: 6-4, 5-3, 1-2; round 3: 2-6, 3-1, 4-5.
    // Without p6 and p4: 2-5 (round 1) first, then 3-1 (round 3); 1-2 loses to 2-5 for p2.
    EXPECT_EQ(rr.pass({"p1", "p2", "p3", "p5"}, rr_start + 1), (std::vector<int>{2, 8}));
    EXPECT_EQ(rr.game(8).first, "p3");
    EXPECT_EQ(rr.game(8).second, "p1");
    EXPECT_EQ(rr.state.players.at("p1").game, 8);
    // Busy players are not put in a second game; p4 and p6 meet in round 2 at once.
    EXPECT_EQ(rr.pass({"p1", "p2", "p3", "p4", "p5", "p6"}, rr_start + 2), (std::vector<int>{4}));
    EXPECT_EQ(rr.game(4).first, "p6");
    // A cancelled game waits again and its players are free.
    rr.run(in::GameCancelled{8}, rr_start + 3);
    EXPECT_EQ(rr.game(8).state, RoundRobinGameState::waiting);
    EXPECT_FALSE(rr.state.players.at("p1").game);
    // p1 and p3 are free again: their game 3-1 is the lowest with both of them here.
    EXPECT_EQ(rr.pass({"p1", "p3"}, rr_start + 4), (std::vector<int>{8}));
    // Nothing more to start: every free pair's games need a busy player.
    EXPECT_TRUE(rr.pass({"p1", "p2", "p3", "p4", "p5", "p6"}, rr_start + 5).empty());
}

TEST(TournamentRoundRobin, DeadlineForfeitsToThePresentPlayerOrLeavesUnplayed) {
    RoundRobin rr;
    for (const char* id : {"a", "b", "c", "d"}) {
        rr.join(id, 1500);
    }
    rr.start();
    // Round 1: a-d, b-c. Nobody comes before the deadline of round 1.
    std::vector<RoundRobinEvent> others;
    EXPECT_TRUE(rr.pass({"a"}, rr_start + hour - 1, &others).empty());
    EXPECT_TRUE(others.empty());
    EXPECT_TRUE(rr.pass({"a"}, rr_start + hour, &others).empty());
    EXPECT_EQ(others,
              (std::vector<RoundRobinEvent>{ev::Forfeited{1, Side::first}, ev::Unplayed{2}}));
    EXPECT_EQ(rr.game(1).state, RoundRobinGameState::forfeit);
    EXPECT_EQ(rr.game(1).winner, Side::first);
    EXPECT_EQ(rr.game(2).state, RoundRobinGameState::unplayed);
    EXPECT_EQ(next_deadline(rr.state), rr_start + 2 * hour);
}

TEST(TournamentRoundRobin, WithdrawalAfterTheStartForfeitsTheWaitingGames) {
    RoundRobin rr;
    for (const char* id : {"a", "b", "c", "d"}) {
        rr.join(id, 1500);
    }
    rr.start();
    // a-d and b-c are played; then a withdraws from a game in progress.
    ASSERT_EQ(rr.pass({"a", "b", "c", "d"}, rr_start + 1), (std::vector<int>{1, 2}));
    const auto events = rr.run(in::Withdraw{"a"}, rr_start + 2);
    // Round 2: d-c, a-b; round 3: b-d, c-a.
    EXPECT_EQ(events,
              (std::vector<RoundRobinEvent>{ev::Withdrew{"a"}, ev::Forfeited{4, Side::second},
                                            ev::Forfeited{6, Side::first}}));
    EXPECT_EQ(rr.game(1).state, RoundRobinGameState::in_progress);
    EXPECT_TRUE(rr.state.players.at("a").withdrawn);
    EXPECT_EQ(rr.refused(in::Withdraw{"a"}, rr_start + 3), "not_joined");
    rr.run(in::FirstMoveMissed{1, Side::first}, rr_start + 3);
    EXPECT_EQ(rr.game(1).winner, Side::second);
}

TEST(TournamentRoundRobin, ConfigNeedsThreeToSixteenPlayersAClockAndADeadlineInRange) {
    EXPECT_TRUE(check_config(rr_config()).ok());
    EXPECT_FALSE(check_config(rr_config(false, 2)).ok());
    EXPECT_FALSE(check_config(rr_config(false, 17)).ok());
    RoundRobinConfig c = rr_config();
    c.game_deadline_ms = 9 * 60'000;  // under 10 minutes
    EXPECT_FALSE(check_config(c).ok());
    c.game_deadline_ms = 25 * hour;  // over a day
    EXPECT_FALSE(check_config(c).ok());
    c.clock = TimeControl{ClockKind::correspondence, 0, 0, 3};
    EXPECT_TRUE(check_config(c).ok());
    c.game_deadline_ms = 12 * hour;  // under a day by correspondence
    EXPECT_FALSE(check_config(c).ok());
    c.clock = TimeControl{};
    c.game_deadline_ms = hour;
    EXPECT_FALSE(check_config(c).ok());  // unlimited
}

TEST(TournamentRoundRobin, NextDeadlineIsTheEarliestWaitingGames) {
    RoundRobin rr;
    for (const char* id : {"a", "b", "c"}) {
        rr.join(id, 1500);
    }
    rr.start();
    // Round 1: b-c; round 2: a-b; round 3: c-a.
    EXPECT_EQ(next_deadline(rr.state), rr_start + hour);
    ASSERT_EQ(rr.pass({"a", "b", "c"}, rr_start + 1), (std::vector<int>{1}));
    EXPECT_EQ(next_deadline(rr.state), rr_start + 2 * hour);
    EXPECT_TRUE(decide_time(rr.state, rr_start + 5 * hour).empty());
    std::vector<RoundRobinEvent> others;
    EXPECT_TRUE(rr.pass({}, rr_start + 3 * hour, &others).empty());
    EXPECT_EQ(others, (std::vector<RoundRobinEvent>{ev::Unplayed{2}, ev::Unplayed{3}}));
    // Only the game in progress is left: no deadline, and its end is the tournament's.
    EXPECT_EQ(next_deadline(rr.state), std::nullopt);
    EXPECT_FALSE(rr.state.finished);
    const auto last = rr.run(in::GameFinished{1, std::nullopt}, rr_start + 3 * hour + 5);
    EXPECT_EQ(last, (std::vector<RoundRobinEvent>{ev::GameFinished{1, std::nullopt},
                                                  ev::Finished{rr_start + 3 * hour + 5, false}}));
    EXPECT_TRUE(rr.state.finished);
    EXPECT_TRUE(rr.pass({"a", "b", "c"}, rr_start + 4 * hour).empty());
    EXPECT_EQ(rr.refused(in::Withdraw{"a"}, rr_start + 4 * hour), "tournament_finished");
    EXPECT_EQ(rr.refused(in::GameFinished{1, Side::first}, rr_start + 4 * hour),
              "tournament_finished");
}

}  // namespace roundrobin_machine_test
