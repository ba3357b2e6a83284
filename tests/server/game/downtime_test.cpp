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

TEST(Downtime, NoRunsMeansNoDowntime) {
    EXPECT_EQ(
        Downtime::from_runs({}, from_unix_ms(9000)).between(from_unix_ms(0), from_unix_ms(9000)),
        0ms);
    EXPECT_EQ(Downtime{}.between(from_unix_ms(0), from_unix_ms(9000)), 0ms);
}

}  // namespace
