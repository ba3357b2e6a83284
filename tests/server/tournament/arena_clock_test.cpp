#include "server/tournament/arena_clock.h"

#include <gtest/gtest.h>

namespace arena_clock_test {

using protocol::ClockKind;
using protocol::TimeControl;
using server::tournament::after_pause;
using server::tournament::berserk_clock;
using server::tournament::has_base_time;
using server::tournament::pairing_stop_ms;
using server::tournament::pause_delay_ms;
using server::tournament::pause_wait_left_ms;
using server::tournament::PauseRecord;
using server::tournament::PlayerClock;

TimeControl clock(int initial_s, int increment_s) {
    return TimeControl{ClockKind::real_time, initial_s, increment_s, 0};
}

TEST(ArenaClock, BerserkHalvesTheBaseAndRemovesTheIncrement) {
    EXPECT_EQ(berserk_clock(clock(180, 0)), (PlayerClock{90'000, 0}));
    EXPECT_EQ(berserk_clock(clock(180, 2)), (PlayerClock{90'000, 0}));  // 180 ≥ 40 × 2
    EXPECT_EQ(berserk_clock(clock(80, 2)), (PlayerClock{40'000, 0}));   // 80 = 40 × 2: halved
    EXPECT_EQ(berserk_clock(clock(45, 0)), (PlayerClock{22'500, 0}));
}

TEST(ArenaClock, BerserkKeepsABaseUnderFortyIncrements) {
    EXPECT_EQ(berserk_clock(clock(60, 2)), (PlayerClock{60'000, 0}));  // 60 < 80
    EXPECT_EQ(berserk_clock(clock(79, 2)), (PlayerClock{79'000, 0}));
}

TEST(ArenaClock, OnlyARealTimeClockWithABaseHasOne) {
    EXPECT_TRUE(has_base_time(clock(60, 0)));
    EXPECT_FALSE(has_base_time(clock(0, 5)));
    EXPECT_FALSE(has_base_time(TimeControl{}));
    EXPECT_FALSE(has_base_time(TimeControl{ClockKind::correspondence, 0, 0, 3}));
}

TEST(ArenaClock, PairingStopsHalfTheBaseBeforeTheEndWithinThirtyAndOneHundredTwentySeconds) {
    EXPECT_EQ(pairing_stop_ms(clock(60, 0)), 30'000);  // half of 60 s is 30 s
    EXPECT_EQ(pairing_stop_ms(clock(30, 1)), 30'000);  // 15 s: at least 30 s
    EXPECT_EQ(pairing_stop_ms(clock(0, 5)), 30'000);
    EXPECT_EQ(pairing_stop_ms(clock(180, 0)), 90'000);   // 3+0
    EXPECT_EQ(pairing_stop_ms(clock(300, 3)), 120'000);  // 150 s: at most 120 s
    EXPECT_EQ(pairing_stop_ms(clock(600, 0)), 120'000);
}

TEST(ArenaClock, AFirstPauseWaitsTenSecondsAndLaterOnesLonger) {
    const TimeControl five_zero = clock(300, 0);  // a game: 300 s, so a step of 20 s
    EXPECT_EQ(pause_delay_ms(PauseRecord{1, 0}, five_zero), 10'000);
    EXPECT_EQ(pause_delay_ms(PauseRecord{2, 0}, five_zero), 20'000);
    EXPECT_EQ(pause_delay_ms(PauseRecord{3, 0}, five_zero), 40'000);
    EXPECT_EQ(pause_delay_ms(PauseRecord{7, 0}, five_zero), 120'000);
    EXPECT_EQ(pause_delay_ms(PauseRecord{8, 0}, five_zero), 120'000);  // 140 s: at most 120
    const TimeControl one_zero = clock(60, 0);  // a step of 4 s: at least 10 s
    EXPECT_EQ(pause_delay_ms(PauseRecord{2, 0}, one_zero), 10'000);
    EXPECT_EQ(pause_delay_ms(PauseRecord{4, 0}, one_zero), 12'000);
    const TimeControl three_two = clock(180, 2);  // 180 + 80 = 260 s: a step of 17 s
    EXPECT_EQ(pause_delay_ms(PauseRecord{2, 0}, three_two), 17'000);
}

TEST(ArenaClock, PausesAreCountedAndForgottenAfterTwentyMinutes) {
    const PauseRecord first = after_pause(std::nullopt, 1'000);
    EXPECT_EQ(first, (PauseRecord{1, 1'000}));
    const PauseRecord second = after_pause(first, 61'000);
    EXPECT_EQ(second, (PauseRecord{2, 61'000}));
    EXPECT_EQ(after_pause(second, 61'000 + 20 * 60'000 - 1), (PauseRecord{3, 61'000 + 1'199'999}));
    EXPECT_EQ(after_pause(second, 61'000 + 20 * 60'000), (PauseRecord{1, 61'000 + 1'200'000}));
}

TEST(ArenaClock, TheWaitLeftEndsWithinOneSecondOfTheDelay) {
    const TimeControl five_zero = clock(300, 0);
    const PauseRecord first{1, 100'000};
    EXPECT_EQ(pause_wait_left_ms(std::nullopt, five_zero, 100'000), 0);
    EXPECT_EQ(pause_wait_left_ms(first, five_zero, 100'000), 10'000);
    EXPECT_EQ(pause_wait_left_ms(first, five_zero, 108'500), 1'500);
    EXPECT_EQ(pause_wait_left_ms(first, five_zero, 109'000), 0);  // 1 s left: lila's rounding
    const PauseRecord second{2, 100'000};
    EXPECT_EQ(pause_wait_left_ms(second, five_zero, 110'000), 10'000);
    EXPECT_EQ(pause_wait_left_ms(second, five_zero, 100'000 + 20 * 60'000), 0);
}

}  // namespace arena_clock_test
