#include "server/bots/bot_time.h"

#include <gtest/gtest.h>

namespace {

using std::chrono::milliseconds;

TEST(BotTime, LevelsThinkLongerAsTheyRise) {
    EXPECT_EQ(server::level_move_time(1), milliseconds(100));
    EXPECT_EQ(server::level_move_time(8), milliseconds(1500));
    for (int level = 2; level <= 8; ++level) {
        EXPECT_GT(server::level_move_time(level), server::level_move_time(level - 1)) << level;
    }
}

TEST(BotTime, WithoutARunningClockTheLevelsTimeCounts) {
    EXPECT_EQ(server::bot_think_time(milliseconds(600), std::nullopt, 0), milliseconds(600));
    EXPECT_EQ(server::bot_think_time(milliseconds(5), std::nullopt, 0), server::min_bot_think);
}

// A thirtieth of the time left plus three quarters of the increment, within the level's time and
// the 20 ms floor.
TEST(BotTime, ARealTimeBudgetIsAShareOfTheClockCappedByTheLevel) {
    EXPECT_EQ(server::bot_think_time(milliseconds(1500), 300000, 3000), milliseconds(1500));
    EXPECT_EQ(server::bot_think_time(milliseconds(1500), 30000, 0), milliseconds(1000));
    EXPECT_EQ(server::bot_think_time(milliseconds(1500), 3000, 1000), milliseconds(850));
    EXPECT_EQ(server::bot_think_time(milliseconds(1500), 300, 0), server::min_bot_think);
    EXPECT_EQ(server::bot_think_time(milliseconds(1500), -500, 0), server::min_bot_think);
}

// Under load a move shares its time with the moves waiting behind it (per thread); alone, it
// keeps all of it.
TEST(BotTime, BusyPoolsShareTheTimeOutAmongTheWaitingMoves) {
    EXPECT_EQ(server::busy_think_time(milliseconds(1500), 0, 1), milliseconds(1500));
    EXPECT_EQ(server::busy_think_time(milliseconds(1500), 19, 1), milliseconds(75));
    EXPECT_EQ(server::busy_think_time(milliseconds(1500), 2, 2), milliseconds(750));
    EXPECT_EQ(server::busy_think_time(milliseconds(1500), 1, 3), milliseconds(1125));
    EXPECT_EQ(server::busy_think_time(milliseconds(1500), 1000, 1), server::min_bot_think);
    EXPECT_EQ(server::busy_think_time(milliseconds(10), 5, 1), milliseconds(10));
    EXPECT_EQ(server::busy_think_time(milliseconds(1500), 5, 0), milliseconds(1500));
}

}  // namespace
