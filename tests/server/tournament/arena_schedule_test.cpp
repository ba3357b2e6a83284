// The schedule of the server's own arenas (issue 43, slice 3): which arenas are due when, pure.
#include "server/tournament/arena_schedule.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using namespace server::tournament;

constexpr std::int64_t sched_minute = 60'000;
constexpr std::int64_t sched_hour = 60 * sched_minute;
constexpr std::int64_t sched_day = 24 * sched_hour;
// 2026-12-04 00:00:00 UTC.
constexpr std::int64_t sched_midnight = 1'796'342'400'000;

ScheduleEntry sched_entry(std::string name, ScheduleEvery every, int lead_minutes = 60) {
    ScheduleEntry e;
    e.name = std::move(name);
    e.clock.kind = protocol::ClockKind::real_time;
    e.clock.initial_seconds = 180;
    e.clock.increment_seconds = 2;
    e.minutes = 57;
    e.every = every;
    e.lead_minutes = lead_minutes;
    return e;
}

std::set<std::string> due_keys(const std::vector<DueArena>& arenas) {
    std::set<std::string> keys;
    for (const auto& a : arenas) {
        keys.insert(a.key);
    }
    return keys;
}

TEST(ArenaSchedule, MidnightConstantIsMidnightUtc) {
    EXPECT_EQ(sched_midnight % sched_day, 0);
}

TEST(ArenaSchedule, DefaultIsAnHourlyArenaPerGame) {
    const auto schedule = default_schedule();
    ASSERT_TRUE(check_schedule(schedule).ok()) << check_schedule(schedule).error();
    ASSERT_EQ(schedule.size(), 3u);
    std::set<core::VariantId> games;
    for (const auto& e : schedule) {
        games.insert(e.variant);
        EXPECT_EQ(e.every.kind, Recurrence::hourly) << e.name;
        EXPECT_EQ(e.minutes, 57) << e.name;
        EXPECT_TRUE(e.rated && e.berserkable) << e.name;
        EXPECT_EQ(e.lead_minutes, 60) << e.name;
    }
    EXPECT_EQ(games.size(), 3u);
    EXPECT_EQ(schedule[0].clock.initial_seconds, 180);
    EXPECT_EQ(schedule[0].rules, core::RuleSet::house);
    EXPECT_EQ(schedule[2].variant, core::VariantId::sniderman);
    EXPECT_EQ(schedule[2].clock.initial_seconds, 300);
    EXPECT_EQ(schedule[2].clock.increment_seconds, 3);
}

TEST(ArenaSchedule, HourlyIsDueAnHourAheadOnTheHour) {
    const ArenaSchedule schedule = {sched_entry("H", {Recurrence::hourly})};
    const auto now = sched_midnight + 13 * sched_hour + 25 * sched_minute + 7'000;
    const auto arenas = due(schedule, now, {});
    ASSERT_EQ(arenas.size(), 1u);
    EXPECT_EQ(arenas[0].config.starts_at, sched_midnight + 14 * sched_hour);
    EXPECT_EQ(arenas[0].key, "H@" + std::to_string(sched_midnight + 14 * sched_hour));
    EXPECT_EQ(arenas[0].name, "H");
    EXPECT_EQ(arenas[0].config.duration_ms, 57 * sched_minute);
    EXPECT_EQ(arenas[0].config.clock.increment_seconds, 2);
}

TEST(ArenaSchedule, TheNextHourIsDueTheMomentTheLastOneStarts) {
    const ArenaSchedule schedule = {sched_entry("H", {Recurrence::hourly})};
    const std::set<std::string> existing = {schedule_key("H", sched_midnight + 14 * sched_hour)};
    EXPECT_TRUE(due(schedule, sched_midnight + 14 * sched_hour - 1, existing).empty());
    const auto at_start = due(schedule, sched_midnight + 14 * sched_hour, existing);
    ASSERT_EQ(at_start.size(), 1u);
    EXPECT_EQ(at_start[0].config.starts_at, sched_midnight + 15 * sched_hour);
}

TEST(ArenaSchedule, AStartThatHasComeIsNeverCreated) {
    // Down from 13:50 to 14:20: the 14:00 arena is not made afterwards, the 15:00 one is.
    const ArenaSchedule schedule = {sched_entry("H", {Recurrence::hourly})};
    const auto arenas = due(schedule, sched_midnight + 14 * sched_hour + 20 * sched_minute, {});
    ASSERT_EQ(arenas.size(), 1u);
    EXPECT_EQ(arenas[0].config.starts_at, sched_midnight + 15 * sched_hour);
    EXPECT_EQ(starts_between({Recurrence::hourly}, sched_midnight + 14 * sched_hour,
                             sched_midnight + 14 * sched_hour),
              std::vector<ArenaTime>{});
}

TEST(ArenaSchedule, NothingTwiceGivenWhatExists) {
    const ArenaSchedule schedule = {sched_entry("H", {Recurrence::hourly}),
                                    sched_entry("Q", {Recurrence::every_minutes, 0, 20})};
    const auto now = sched_midnight + 9 * sched_hour + 5 * sched_minute;
    const auto first = due(schedule, now, {});
    // Q every 20 minutes, an hour ahead: 9:20, 9:40, 10:00; H: 10:00.
    ASSERT_EQ(first.size(), 4u);
    EXPECT_EQ(first[0].key, schedule_key("Q", sched_midnight + 9 * sched_hour + 20 * sched_minute));
    EXPECT_EQ(first[3].key, schedule_key("Q", sched_midnight + 10 * sched_hour));
    EXPECT_EQ(first[2].key, schedule_key("H", sched_midnight + 10 * sched_hour))
        << "the schedule's order";
    const auto existing = due_keys(first);
    EXPECT_TRUE(due(schedule, now, existing).empty());
    EXPECT_TRUE(due(schedule, now + 4 * sched_minute, existing).empty());
    // Once 9:20 has started, only 10:20 is new.
    const auto later = due(schedule, now + 15 * sched_minute, existing);
    ASSERT_EQ(later.size(), 1u);
    EXPECT_EQ(later[0].key,
              schedule_key("Q", sched_midnight + 10 * sched_hour + 20 * sched_minute));
}

TEST(ArenaSchedule, DailyAtAUtcTimeWithItsLead) {
    const ArenaSchedule schedule = {sched_entry("D", {Recurrence::daily, 20 * 60 + 30}, 120)};
    EXPECT_TRUE(due(schedule, sched_midnight + 18 * sched_hour + 29 * sched_minute, {}).empty());
    const auto arenas = due(schedule, sched_midnight + 18 * sched_hour + 30 * sched_minute, {});
    ASSERT_EQ(arenas.size(), 1u);
    EXPECT_EQ(arenas[0].config.starts_at, sched_midnight + 20 * sched_hour + 30 * sched_minute);
    // After it starts the next is tomorrow's, two hours before it.
    EXPECT_TRUE(due(schedule, sched_midnight + 21 * sched_hour, {}).empty());
    const auto tomorrow = due(schedule, sched_midnight + sched_day + 19 * sched_hour, {});
    ASSERT_EQ(tomorrow.size(), 1u);
    EXPECT_EQ(tomorrow[0].config.starts_at,
              sched_midnight + sched_day + 20 * sched_hour + 30 * sched_minute);
}

TEST(ArenaSchedule, UtcHasNoDaylightSavingTime) {
    // 2026-03-29 and 2026-10-25 (Europe's changes) and 2026-03-08 (the US's): a daily 12:00 UTC
    // start stays 24 hours after the one before.
    const ScheduleEvery noon{Recurrence::daily, 12 * 60};
    for (const std::int64_t change :
         {1'774'742'400'000LL, 1'792'886'400'000LL, 1'772'928'000'000LL}) {
        ASSERT_EQ(change % sched_day, 0) << change;
        const auto starts = starts_between(noon, change - sched_day, change + sched_day);
        ASSERT_EQ(starts.size(), 2u) << change;
        EXPECT_EQ(starts[0], change - sched_day + 12 * sched_hour);
        EXPECT_EQ(starts[1] - starts[0], sched_day);
    }
}

TEST(ArenaSchedule, EveryFewMinutesCountsFromMidnight) {
    const auto starts =
        starts_between({Recurrence::every_minutes, 0, 45}, sched_midnight - sched_minute,
                       sched_midnight + 2 * sched_hour);
    const std::vector<ArenaTime> expected = {sched_midnight, sched_midnight + 45 * sched_minute,
                                             sched_midnight + 90 * sched_minute};
    EXPECT_EQ(starts, expected);
}

TEST(ArenaSchedule, BadEntriesAreRefusedWithTheField) {
    auto short_arena = sched_entry("S", {Recurrence::hourly});
    short_arena.minutes = 10;
    EXPECT_NE(check_entry(short_arena).error().find("20 to 180"), std::string::npos);
    auto no_clock = sched_entry("C", {Recurrence::hourly});
    no_clock.clock = {};
    EXPECT_NE(check_entry(no_clock).error().find("real-time"), std::string::npos);
    auto long_lead = sched_entry("L", {Recurrence::every_minutes, 0, 5}, 600);
    EXPECT_NE(check_entry(long_lead).error().find("lead_minutes"), std::string::npos);
    auto late = sched_entry("T", {Recurrence::daily, 24 * 60});
    EXPECT_NE(check_entry(late).error().find("`at`"), std::string::npos);
    EXPECT_NE(check_entry(sched_entry("", {Recurrence::hourly})).error().find("`name`"),
              std::string::npos);
    const auto twice = check_schedule(
        {sched_entry("X", {Recurrence::hourly}), sched_entry("X", {Recurrence::daily, 60})});
    ASSERT_FALSE(twice.ok());
    EXPECT_NE(twice.error().find("arenas[1] (X)"), std::string::npos) << twice.error();
}

}  // namespace
