// The clock as a value: driven by the times the test gives it, so flags, increments, untimed first
// moves, lag credit and correspondence periods are checked without waiting.
#include "server/game/game_clock.h"

#include <gtest/gtest.h>

namespace {

using namespace std::chrono_literals;
using protocol::ClockKind;
using protocol::TimeControl;
using server::GameClock;
using server::ServerTime;

TimeControl real_time(int initial, int increment) {
    return TimeControl{ClockKind::real_time, initial, increment, 0};
}

// One action as the room does it: what it produces, then recorded.
GameClock::Action act(GameClock& clock, int seat, std::optional<int> next, ServerTime at,
                      int lag = 0) {
    const auto action = clock.after_action(seat, next, at, lag);
    clock.on_action(seat, action.reading, action.lag_credited, at);
    return action;
}

const ServerTime t0 = ServerTime{} + 1000s;

TEST(GameClock, FirstMoveOfEachSideIsNotTimedThenTheMoverPaysAndGetsTheIncrement) {
    GameClock clock(real_time(60, 2));
    EXPECT_EQ(clock.left(0, t0), 60000);
    EXPECT_FALSE(clock.running());
    EXPECT_FALSE(clock.flag_time());

    auto white = act(clock, 0, 1, t0 + 7s);  // white's first move: untimed, no increment
    EXPECT_EQ(white.reading.left, (std::array<std::int64_t, 2>{60000, 60000}));
    EXPECT_FALSE(white.reading.running) << "black's first move is not timed either";
    EXPECT_FALSE(clock.both_acted());

    auto black = act(clock, 1, 0, t0 + 20s);
    EXPECT_EQ(black.reading.left, (std::array<std::int64_t, 2>{60000, 60000}));
    EXPECT_EQ(black.reading.running, 0) << "from now on white's clock runs";
    EXPECT_TRUE(clock.both_acted());
    EXPECT_EQ(clock.left(0, t0 + 25s), 55000);
    EXPECT_EQ(clock.left(1, t0 + 25s), 60000);

    auto second = act(clock, 0, 1, t0 + 30s);  // 10 s taken, 2 s back
    EXPECT_EQ(second.reading.left, (std::array<std::int64_t, 2>{52000, 60000}));
    EXPECT_EQ(second.reading.running, 1);
    EXPECT_EQ(clock.left(1, t0 + 31500ms), 58500);
}

// Issue 22: the flag falls once the time and the lag grace (the credit the mover could still get:
// 15+0 gains 210 ms of quota per move) are gone.
TEST(GameClock, FlagFallsWhenTheRunningTimeAndTheLagGraceAreGone) {
    GameClock clock(real_time(15, 0));
    act(clock, 0, 1, t0);
    act(clock, 1, 0, t0 + 1s);  // white's 15 s run from t0 + 1 s
    ASSERT_TRUE(clock.flag_time());
    EXPECT_EQ(clock.grace(0), 210);
    EXPECT_EQ(*clock.flag_time(), t0 + 16s + 210ms);
    EXPECT_FALSE(clock.flagged(t0 + 16s + 209ms));
    EXPECT_EQ(clock.flagged(t0 + 16s + 210ms), 0);
    const auto at_end = clock.reading(t0 + 17s, true);
    EXPECT_EQ(at_end.left, (std::array<std::int64_t, 2>{0, 15000})) << "never below zero";
    EXPECT_FALSE(at_end.running);
}

TEST(GameClock, LagCreditIsBoundedByTheQuotaAndTheMoveTime) {
    const auto control = real_time(60, 0);  // gain: min(1000, 150 + 4 × 60) = 390 ms
    ASSERT_EQ(server::lag_quota_gain_ms(control), 390);
    GameClock clock(control);
    act(clock, 0, 1, t0);
    act(clock, 1, 0, t0);
    // A huge measured lag: the credit stops at the quota (one gain so far).
    auto first = act(clock, 0, 1, t0 + 5s, 5000);
    EXPECT_EQ(first.lag_credited, 390);
    EXPECT_EQ(first.reading.left[0], 60000 - 5000 + 390);
    // The quota refills by one gain per move, and is kept up to three gains.
    act(clock, 1, 0, t0 + 5s);
    auto small = act(clock, 0, 1, t0 + 6s, 100);  // quota 390, lag 100: all of it
    EXPECT_EQ(small.lag_credited, 100);
    act(clock, 1, 0, t0 + 6s);
    auto quick = act(clock, 0, 1, t0 + 6050ms, 400);  // the move took 50 ms: at most that
    EXPECT_EQ(quick.lag_credited, 50);
    for (int i = 0; i < 5; ++i) {
        act(clock, 1, 0, t0 + 7s);
        act(clock, 0, 1, t0 + 7s);  // no time taken: nothing credited, the quota grows
    }
    act(clock, 1, 0, t0 + 7s);
    EXPECT_EQ(act(clock, 0, 1, t0 + 17s, 5000).lag_credited, 3 * 390) << "kept up to 3 gains";
}

TEST(GameClock, ReplayingReadingsAndCreditsGivesTheSameClock) {
    GameClock live(real_time(180, 2));
    GameClock replayed(real_time(180, 2));
    std::vector<std::tuple<int, GameClock::Action, ServerTime>> actions;
    ServerTime at = t0;
    for (int ply = 0; ply < 12; ++ply) {
        at += std::chrono::milliseconds(700 + 311 * ply);
        const int seat = ply % 2;
        actions.emplace_back(seat, act(live, seat, 1 - seat, at, 150 + 37 * ply), at);
    }
    const auto later = at + 10s;
    for (const auto& [seat, action, when] : actions) {
        replayed.on_action(seat, action.reading, action.lag_credited, later);
    }
    // The replay restarts the running clock from the last reading (time since is not charged).
    EXPECT_EQ(replayed.reading(later).left, std::get<1>(actions.back()).reading.left);
    EXPECT_EQ(replayed.running(), live.running());
    // The quotas match: the next action credits the same in both.
    const auto next_live = live.after_action(0, 1, at + 1s, 5000);
    const auto next_replayed = replayed.after_action(0, 1, later + 1s, 5000);
    EXPECT_EQ(next_live.lag_credited, next_replayed.lag_credited);
    EXPECT_EQ(next_live.reading.left, next_replayed.reading.left);
}

TEST(GameClock, CorrespondenceRunsFromTheStartAndEachMoveResetsThePeriod) {
    const TimeControl control{ClockKind::correspondence, 0, 0, 3};
    const std::int64_t period = 3LL * 86400 * 1000;
    GameClock clock(control);
    clock.start(0, t0);
    EXPECT_EQ(clock.running(), 0) << "the first move is timed in correspondence";
    EXPECT_EQ(clock.left(0, t0 + 1h), period - 3600 * 1000);
    const auto white = act(clock, 0, 1, t0 + 30h, 400);
    EXPECT_EQ(white.lag_credited, 0);
    EXPECT_EQ(white.reading.left, (std::array<std::int64_t, 2>{period, period}));
    EXPECT_EQ(white.reading.running, 1);
    EXPECT_FALSE(clock.flagged(t0 + 30h + 72h - 1ms));
    EXPECT_EQ(clock.flagged(t0 + 30h + 72h), 1);
}

TEST(GameClock, SetTakesAReadingAndStopFreezesIt) {
    GameClock clock(real_time(300, 0));
    act(clock, 0, 1, t0);
    act(clock, 1, 0, t0);
    protocol::events::ClockReading back;
    back.left = {12345, 67890};
    back.running = 1;
    clock.set(back, t0 + 1h);
    EXPECT_EQ(clock.left(1, t0 + 1h + 345ms), 67545);
    EXPECT_EQ(clock.left(0, t0 + 2h), 12345);
    const auto frozen = clock.reading(t0 + 1h + 1s, true);
    clock.set(frozen, t0 + 1h + 1s);
    EXPECT_FALSE(clock.running());
    EXPECT_FALSE(clock.flagged(t0 + 10h));
    EXPECT_EQ(clock.left(1, t0 + 10h), 66890);
}

TEST(GameClock, GraceDependsOnTheTimeControl) {
    EXPECT_EQ(server::gone_grace(real_time(60, 0)), 30s);      // a tenth of 60 s, raised to 30 s
    EXPECT_EQ(server::gone_grace(real_time(600, 5)), 80s);     // (600 + 200) / 10
    EXPECT_EQ(server::gone_grace(real_time(1800, 20)), 120s);  // capped
}

TEST(GameClock, UnlimitedNeverRunsNorFlags) {
    GameClock clock;
    EXPECT_FALSE(clock.timed());
    clock.on_action(0, std::nullopt, 0, t0);
    clock.on_action(1, std::nullopt, 0, t0);
    EXPECT_TRUE(clock.both_acted());
    EXPECT_FALSE(clock.running());
    EXPECT_FALSE(clock.flagged(t0 + 1000h));
}

}  // namespace
