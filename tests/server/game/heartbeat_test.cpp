// Issue 42, finding 17: what a node knows of the time its games could not move though it ran —
// the pauses of its process (a look at the clocks much later than the one before, by the steady
// clock and the time source both), when the store worked again (a heartbeat's write landed), and
// the games a room stopped acting for.
#include "server/game/heartbeat.h"

#include <gtest/gtest.h>

namespace {

using namespace std::chrono_literals;
using server::from_unix_ms;
using server::NodeOutages;
using Steady = std::chrono::steady_clock;

TEST(NodeOutages, ALookFarLaterThanTheOneBeforeRecordsThePauseLessOneTick) {
    NodeOutages outages;
    outages.set_watching(true);
    const auto steady = Steady::now();
    const auto t = from_unix_ms(1'000'000);
    EXPECT_FALSE(outages.look(steady, t));
    EXPECT_FALSE(outages.look(steady + 100ms, t + 100ms));
    EXPECT_FALSE(outages.look(steady + 1200ms, t + 1200ms)) << "1.1 s late: charged";
    const auto pause = outages.look(steady + 4200ms, t + 4200ms);  // SIGSTOPped 3 s
    ASSERT_TRUE(pause);
    EXPECT_EQ(*pause, 2900ms);
    EXPECT_EQ(outages.pause_count(), 1u);
    EXPECT_EQ(outages.pauses().between(t, t + 10s), 2900ms);
    EXPECT_EQ(outages.pauses().between(t + 1300ms, t + 4200ms), 2900ms) << "just before now";
}

TEST(NodeOutages, NoPauseWhenOnlyOneClockMovedOrNobodyWatches) {
    NodeOutages outages;
    const auto steady = Steady::now();
    const auto t = from_unix_ms(1'000'000);
    outages.look(steady, t);
    EXPECT_FALSE(outages.look(steady + 5s, t + 5s)) << "not watching: the watchdog is not running";
    outages.set_watching(true);
    outages.look(steady + 5s, t + 5s);
    EXPECT_FALSE(outages.look(steady + 5100ms, t + 1h)) << "a hand-moved time jumped (tests)";
    EXPECT_FALSE(outages.look(steady + 9s, t + 1h)) << "the steady clock alone is late";
    EXPECT_EQ(outages.pause_count(), 0u);
}

TEST(NodeOutages, TheStoreWorksAgainWhenAHeartbeatLandsAfterTheFailure) {
    NodeOutages outages;
    const auto t = from_unix_ms(1'000'000);
    outages.store_worked(t);
    EXPECT_FALSE(outages.store_worked_after(t + 1s));
    outages.store_worked(t + 3s);
    outages.store_worked(t + 4s);
    EXPECT_EQ(outages.store_worked_after(t + 1s), t + 3s);
    EXPECT_EQ(outages.store_worked_after(t + 3s), t + 4s);
}

TEST(NodeOutages, AStoppedGameIsRefundedOnlyIfNobodyPlayedOrClaimedItSince) {
    NodeOutages outages;
    const auto t = from_unix_ms(1'000'000);
    outages.stopped("g1", t, 7, 3);
    outages.stopped("g2", t, 7, 3);
    outages.stopped("g3", t, 7, 3);
    EXPECT_EQ(outages.take_stopped("g1", 7, 3), t);
    EXPECT_FALSE(outages.take_stopped("g1", 7, 3)) << "taken once";
    EXPECT_FALSE(outages.take_stopped("g2", 8, 3)) << "played elsewhere since";
    EXPECT_FALSE(outages.take_stopped("g3", 7, 4)) << "claimed by another node since";
    EXPECT_FALSE(outages.take_stopped("g4", 0, 0));
}

}  // namespace
