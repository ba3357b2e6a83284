// An operator's schedule file (issue 43, slice 3): read into entries, or refused naming the entry
// and the field.
#include "server/tournament/arena_schedule.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace server::tournament;

std::string schedule_error_of(const std::string& text) {
    auto parsed = parse_schedule(text);
    return parsed ? std::string("(read)") : parsed.error();
}

TEST(ArenaScheduleJson, ReadsEveryKindWithItsDefaults) {
    const auto parsed = parse_schedule(R"({"arenas": [
        {"name": "Hourly Blitz", "variant": "chesica", "clock": {"initial": 180, "increment": 0},
         "minutes": 30, "every": "hourly"},
        {"name": "Evening", "variant": "chessence", "rules": "strict",
         "clock": {"initial": 300, "increment": 3}, "minutes": 90, "rated": false,
         "berserkable": false, "every": "daily", "at": "20:30", "lead_minutes": 240},
        {"name": "Quick", "variant": "sniderman", "clock": {"initial": 60, "increment": 1},
         "minutes": 20, "every": 30}
    ]})");
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    ASSERT_EQ(parsed->size(), 3u);
    const auto& hourly = (*parsed)[0];
    EXPECT_EQ(hourly.name, "Hourly Blitz");
    EXPECT_EQ(hourly.variant, core::VariantId::chesica);
    EXPECT_EQ(hourly.rules, core::RuleSet::house);
    EXPECT_EQ(hourly.minutes, 30);
    EXPECT_TRUE(hourly.rated);
    EXPECT_TRUE(hourly.berserkable);
    EXPECT_EQ(hourly.every.kind, Recurrence::hourly);
    EXPECT_EQ(hourly.lead_minutes, default_lead_minutes);
    const auto& daily = (*parsed)[1];
    EXPECT_EQ(daily.rules, core::RuleSet::strict);
    EXPECT_FALSE(daily.rated);
    EXPECT_FALSE(daily.berserkable);
    EXPECT_EQ(daily.every.kind, Recurrence::daily);
    EXPECT_EQ(daily.every.at_minute, 20 * 60 + 30);
    EXPECT_EQ(daily.lead_minutes, 240);
    EXPECT_EQ(daily.clock.increment_seconds, 3);
    const auto& quick = (*parsed)[2];
    EXPECT_EQ(quick.every.kind, Recurrence::every_minutes);
    EXPECT_EQ(quick.every.minutes, 30);
}

TEST(ArenaScheduleJson, AnEmptyListIsASchedule) {
    const auto parsed = parse_schedule(R"({"arenas": []})");
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    EXPECT_TRUE(parsed->empty());
}

TEST(ArenaScheduleJson, BadFilesAreRefusedNamingTheProblem) {
    EXPECT_EQ(schedule_error_of("{arenas"), "not JSON");
    EXPECT_NE(schedule_error_of("[]").find("`arenas`"), std::string::npos);
    EXPECT_NE(schedule_error_of(R"({"arenas": [], "swiss": []})").find("`swiss`"),
              std::string::npos);
    const std::string good_fields =
        R"("clock": {"initial": 180, "increment": 2}, "minutes": 57, "every": "hourly")";
    const auto no_variant =
        schedule_error_of(R"({"arenas": [{"name": "A", )" + good_fields + "}]}");
    EXPECT_NE(no_variant.find("arenas[0] (A)"), std::string::npos) << no_variant;
    EXPECT_NE(no_variant.find("`variant` is missing"), std::string::npos) << no_variant;
    const auto bad_variant = schedule_error_of(R"({"arenas": [{"name": "A", "variant": "chess", )" +
                                               good_fields + "}]}");
    EXPECT_NE(bad_variant.find("`chess`"), std::string::npos) << bad_variant;
    const auto typo = schedule_error_of(R"({"arenas": [{"name": "A", "variant": "chessence", )" +
                                        good_fields + R"(, "lead_minute": 5}]})");
    EXPECT_NE(typo.find("`lead_minute` is not a field"), std::string::npos) << typo;
    const auto short_arena = schedule_error_of(
        R"({"arenas": [{"name": "A", "variant": "chessence", "clock": {"initial": 180,
           "increment": 2}, "minutes": 5, "every": "hourly"}]})");
    EXPECT_NE(short_arena.find("`minutes`"), std::string::npos) << short_arena;
    const auto no_at = schedule_error_of(
        R"({"arenas": [{"name": "A", "variant": "chessence", "clock": {"initial": 180,
           "increment": 2}, "minutes": 57, "every": "daily"}]})");
    EXPECT_NE(no_at.find("`at`"), std::string::npos) << no_at;
    const auto bad_at = schedule_error_of(
        R"({"arenas": [{"name": "A", "variant": "chessence", "clock": {"initial": 180,
           "increment": 2}, "minutes": 57, "every": "daily", "at": "25:00"}]})");
    EXPECT_NE(bad_at.find("HH:MM"), std::string::npos) << bad_at;
    const auto weekly = schedule_error_of(
        R"({"arenas": [{"name": "A", "variant": "chessence", "clock": {"initial": 180,
           "increment": 2}, "minutes": 57, "every": "weekly"}]})");
    EXPECT_NE(weekly.find("`every`"), std::string::npos) << weekly;
    const auto no_clock = schedule_error_of(
        R"({"arenas": [{"name": "A", "variant": "chessence", "minutes": 57, "every": 60}]})");
    EXPECT_NE(no_clock.find("`clock` is missing"), std::string::npos) << no_clock;
    const auto twice =
        schedule_error_of(R"({"arenas": [{"name": "A", "variant": "chessence", )" + good_fields +
                          R"(}, {"name": "A", "variant": "chesica", )" + good_fields + "}]}");
    EXPECT_NE(twice.find("arenas[1] (A)"), std::string::npos) << twice;
    EXPECT_NE(twice.find("another entry has the name"), std::string::npos) << twice;
}

}  // namespace
