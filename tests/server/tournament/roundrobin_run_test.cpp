// Round robins played to the end through decide / apply, with hand-checked standings.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "server/tournament/roundrobin.h"
#include "server/tournament/roundrobin_standings.h"

namespace roundrobin_run_test {

using core::Side;
using protocol::ClockKind;
using protocol::TimeControl;
using namespace server::tournament;
namespace in = roundrobin_input;
namespace ev = roundrobin_event;

constexpr RoundRobinTime run_start = 70'000'000;
constexpr std::int64_t run_hour = 3'600'000;

struct PlayedRoundRobin {
    RoundRobinState state;
    std::vector<RoundRobinEvent> kept;  // every event, in order

    explicit PlayedRoundRobin(bool double_round) {
        RoundRobinConfig c;
        c.starts_at = run_start;
        c.double_round = double_round;
        c.game_deadline_ms = run_hour;
        c.clock = TimeControl{ClockKind::real_time, 180, 2, 0};
        state = new_round_robin(c);
    }
    void keep(const std::vector<RoundRobinEvent>& events) {
        for (const auto& event : events) {
            const core::Status applied = apply(state, event);
            EXPECT_TRUE(applied.ok()) << (applied.ok() ? "" : applied.error());
            kept.push_back(event);
        }
    }
    std::vector<RoundRobinEvent> run(const RoundRobinInput& input, RoundRobinTime now) {
        const RoundRobinDecision decision = decide(state, input, now);
        EXPECT_TRUE(decision.ok()) << (decision.refusal ? decision.refusal->message : "");
        keep(decision.events);
        return decision.events;
    }
    // A pass at `now`: the games it starts (each started in its room at once), the rest in
    // `others`.
    std::vector<int> pass(const std::vector<std::string>& present, RoundRobinTime now,
                          std::vector<RoundRobinEvent>& others) {
        std::vector<int> games;
        for (const auto& event : run(in::ReadyPass{present}, now)) {
            if (const auto* paired = std::get_if<ev::Paired>(&event)) {
                games.push_back(paired->game);
            } else {
                others.push_back(event);
            }
        }
        for (int game : games) {
            run(in::GameStarted{game, "room" + std::to_string(game)}, now);
        }
        return games;
    }
};

TEST(TournamentRoundRobinRun, FivePlayersDoubleRoundRobinToTheEnd) {
    PlayedRoundRobin rr(true);
    const std::vector<std::string> all = {"p1", "p2", "p3", "p4", "p5"};
    for (std::size_t i = 0; i < all.size(); ++i) {
        rr.run(in::Join{all[i], 1500 + 100 * static_cast<int>(i), false}, run_start - 1000);
    }
    rr.keep(decide_time(rr.state, run_start));
    ASSERT_TRUE(rr.state.started);
    // The schedule (by starting number): 1 2-5, 2 3-4 | 3 5-3, 4 1-2 | 5 3-1, 6 4-5 |
    // 7 1-4, 8 2-3 | 9 4-2, 10 5-1 | then the same with colours swapped: 11 5-2, 12 4-3 |
    // 13 3-5, 14 2-1 | 15 1-3, 16 5-4 | 17 4-1, 18 3-2 | 19 2-4, 20 1-5.
    // Each round's pass comes within its hour; p1 misses round 5 (game 10 is forfeited to p5
    // at the next pass), p3 and p5 miss round 7 (game 13 is unplayed: both are there at its
    // deadline, at the next pass).
    const std::map<int, std::vector<std::string>> present = {
        {5, {"p2", "p4", "p5"}}, {6, {"p2", "p3", "p4", "p5"}}, {7, {"p1", "p2", "p4"}}};
    const std::map<int, std::vector<int>> started = {
        {1, {1, 2}},   {2, {3, 4}}, {3, {5, 6}},   {4, {7, 8}},   {5, {9}},
        {6, {11, 12}}, {7, {14}},   {8, {15, 16}}, {9, {17, 18}}, {10, {19, 20}}};
    const std::map<int, std::optional<Side>> results = {
        {1, Side::first},   {2, std::nullopt},  {3, Side::second},  {4, Side::first},
        {5, std::nullopt},  {6, Side::first},   {7, Side::first},   {8, Side::second},
        {9, Side::second},  {11, std::nullopt}, {12, Side::first},  {14, Side::second},
        {15, Side::second}, {16, Side::first},  {17, std::nullopt}, {18, Side::first},
        {19, Side::first},  {20, Side::first}};
    std::vector<RoundRobinEvent> others;
    std::vector<RoundRobinEvent> last;
    for (int round = 1; round <= 10; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const RoundRobinTime now = run_start + (round - 1) * run_hour + 1000;
        const auto games = rr.pass(present.count(round) ? present.at(round) : all, now, others);
        EXPECT_EQ(games, started.at(round));
        for (int game : games) {
            last = rr.run(in::GameFinished{game, results.at(game)}, now + 60'000);
        }
    }
    EXPECT_EQ(others,
              (std::vector<RoundRobinEvent>{ev::Forfeited{10, Side::first}, ev::Unplayed{13}}));
    // The last result brings the end with it.
    ASSERT_EQ(last.size(), 2u);
    EXPECT_EQ(last[1], (RoundRobinEvent{ev::Finished{run_start + 9 * run_hour + 61'000, false}}));
    EXPECT_TRUE(rr.state.finished);
    EXPECT_FALSE(rr.state.cancelled);
    EXPECT_EQ(next_deadline(rr.state), std::nullopt);
    EXPECT_EQ(rr.state.games.at(19).game_id, "room20");

    // Half points: p1 2+1+2+0(forfeit)+2+0+1+2 = 10, p2 7, p3 10, p4 6, p5 5 (a forfeit win).
    // Sonneborn-Berger in quarters: p3 = 6 (d. p4) + 10 (w. p5) + 10 (d. p1) + 14 (w. p2)
    // + 0 + 20 (w. p1) + 14 (w. p2) = 74; p1 = 14 + 10 + 12 + 14 + 0 + 6 + 10 = 66 (nothing
    // from the forfeit); p2 = 10 + 12 + 5 + 12 = 39; p4 = 10 + 10 + 20 + 10 = 50; p5 = 7 + 12 =
    // 19 (its forfeit win adds no SB).
    const auto lines = roundrobin_standings(rr.state);
    ASSERT_EQ(lines.size(), 5u);
    const std::vector<std::string> order = {"p3", "p1", "p2", "p4", "p5"};
    const std::vector<int> half_points = {10, 10, 7, 6, 5};
    const std::vector<int> sb = {74, 66, 39, 50, 19};
    const std::vector<int> played = {7, 7, 8, 8, 6};
    for (std::size_t i = 0; i < lines.size(); ++i) {
        SCOPED_TRACE(lines[i].id);
        EXPECT_EQ(lines[i].id, order[i]);
        EXPECT_EQ(lines[i].rank, static_cast<int>(i) + 1);
        EXPECT_EQ(lines[i].score.half_points, half_points[i]);
        EXPECT_EQ(lines[i].score.sonneborn_berger_quarters, sb[i]);
        EXPECT_EQ(lines[i].played, played[i]);
    }
    EXPECT_EQ(lines[0].number, 3);

    // Replaying the kept events gives the same state.
    RoundRobinState replayed = new_round_robin(rr.state.config);
    for (const auto& event : rr.kept) {
        ASSERT_TRUE(apply(replayed, event).ok());
    }
    EXPECT_EQ(replayed, rr.state);
    EXPECT_FALSE(apply(replayed, ev::Unplayed{1}).ok());
}

// All draws: equal points and Sonneborn-Berger; the higher rating, then the lower starting
// number, goes first.
TEST(TournamentRoundRobinRun, EqualScoresFallBackOnRatingThenStartingNumber) {
    PlayedRoundRobin rr(false);
    rr.run(in::Join{"low", 1500, false}, run_start - 3);
    rr.run(in::Join{"early", 1600, false}, run_start - 2);
    rr.run(in::Join{"late", 1600, false}, run_start - 1);
    rr.keep(decide_time(rr.state, run_start));
    std::vector<RoundRobinEvent> others;
    for (int round = 1; round <= 3; ++round) {
        const RoundRobinTime now = run_start + round * 1000;
        for (int game : rr.pass({"low", "early", "late"}, now, others)) {
            rr.run(in::GameFinished{game, std::nullopt}, now + 1);
        }
    }
    EXPECT_TRUE(others.empty());
    ASSERT_TRUE(rr.state.finished);
    const auto lines = roundrobin_standings(rr.state);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0].id, "early");
    EXPECT_EQ(lines[1].id, "late");
    EXPECT_EQ(lines[2].id, "low");
    for (const auto& line : lines) {
        EXPECT_EQ(line.score.half_points, 2);
        EXPECT_EQ(line.score.sonneborn_berger_quarters, 4);
    }
}

}  // namespace roundrobin_run_test
