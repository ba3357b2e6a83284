// When the server was down, from its stored runs: the gaps between runs, and how much of a span
// they cover.
#include "server/game/downtime.h"

#include <gtest/gtest.h>

namespace {

using namespace std::chrono_literals;
using server::Downtime;
using server::from_unix_ms;

TEST(Downtime, GapsBetweenRunsAndUntilNowCount) {
    // Up 1000-2000, down until 5000, up 5000-6000 (crashed after its last heartbeat), now 9000.
    const auto downtime = Downtime::from_runs({{1000, 2000}, {5000, 6000}}, from_unix_ms(9000));
    EXPECT_EQ(downtime.between(from_unix_ms(0), from_unix_ms(10000)), 6000ms);
    EXPECT_EQ(downtime.between(from_unix_ms(1500), from_unix_ms(2500)), 500ms);
    EXPECT_EQ(downtime.between(from_unix_ms(5500), from_unix_ms(7000)), 1000ms);
    EXPECT_EQ(downtime.between(from_unix_ms(5000), from_unix_ms(6000)), 0ms) << "while up";
    EXPECT_EQ(downtime.between(from_unix_ms(9000), from_unix_ms(9500)), 0ms) << "after the start";
}

TEST(Downtime, OverlappingRunsOfAClusterLeaveOnlyTheSpansNobodyCovered) {
    // Node 1 up 1000-8000; node 2 up 2000-3000 (crashed), node 3 up 4000-5000, node 4 from 9000
    // (now 9500): the only gap is 8000-9000, never 3000-4000 or 5000-9000.
    const auto downtime =
        Downtime::from_runs({{1000, 8000}, {2000, 3000}, {4000, 5000}}, from_unix_ms(9000));
    EXPECT_EQ(downtime.between(from_unix_ms(0), from_unix_ms(9500)), 1000ms);
    EXPECT_EQ(downtime.between(from_unix_ms(3000), from_unix_ms(4000)), 0ms);
    EXPECT_EQ(downtime.between(from_unix_ms(8500), from_unix_ms(9500)), 500ms);
}

TEST(Downtime, AGapAddedCountsOnceWhereItOverlapsAnother) {
    const auto downtime = Downtime::from_runs({{1000, 2000}, {5000, 6000}}, from_unix_ms(9000));
    // A game taken over at 9000 whose owner was last seen at 1500: 1500-9000 without an owner.
    const auto taken = downtime.with_gap(from_unix_ms(1500), from_unix_ms(9000));
    EXPECT_EQ(taken.between(from_unix_ms(0), from_unix_ms(10000)), 7500ms);
    EXPECT_EQ(taken.between(from_unix_ms(5000), from_unix_ms(6000)), 1000ms);
    EXPECT_EQ(downtime.between(from_unix_ms(0), from_unix_ms(10000)), 6000ms) << "unchanged";
    EXPECT_EQ(downtime.with_gap(from_unix_ms(7000), from_unix_ms(7000))
                  .between(from_unix_ms(0), from_unix_ms(10000)),
              6000ms)
        << "an empty gap adds nothing";
}

// Issue 42, finding 17: a room keeps the outages it refunded and adds them to the node's downtime
// when it replays its game; the node's pauses are taken only from where the room left off.
TEST(Downtime, TwoDowntimesTogetherCountEachSpanOnceAndAPartIsCutToItsSpan) {
    const auto restart = Downtime::from_runs({{1000, 2000}, {5000, 6000}}, from_unix_ms(9000));
    const auto outages = Downtime{}
                             .with_gap(from_unix_ms(9500), from_unix_ms(9800))
                             .with_gap(from_unix_ms(8000), from_unix_ms(9200));
    const auto both = restart.with(outages);
    EXPECT_EQ(both.between(from_unix_ms(0), from_unix_ms(10000)), 6000ms + 200ms + 300ms)
        << "8000-9000 was down already";
    EXPECT_EQ(restart.with(Downtime{}).between(from_unix_ms(0), from_unix_ms(10000)), 6000ms);
    const auto part = both.within(from_unix_ms(1500), from_unix_ms(9600));
    EXPECT_EQ(part.between(from_unix_ms(0), from_unix_ms(10000)), 3000ms + 3200ms + 100ms);
    EXPECT_TRUE(both.within(from_unix_ms(1000), from_unix_ms(2000)).empty()) << "while up";
    EXPECT_FALSE(part.empty());
}

TEST(Downtime, NoRunsMeansNoDowntime) {
    EXPECT_EQ(
        Downtime::from_runs({}, from_unix_ms(9000)).between(from_unix_ms(0), from_unix_ms(9000)),
        0ms);
    EXPECT_EQ(Downtime{}.between(from_unix_ms(0), from_unix_ms(9000)), 0ms);
}

}  // namespace
