#include "server/config.h"

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <map>

namespace {

std::map<std::string, std::string>& fake_env() {
    static std::map<std::string, std::string> env;
    return env;
}

const char* lookup(const char* name) {
    auto it = fake_env().find(name);
    return it == fake_env().end() ? nullptr : it->second.c_str();
}

class ConfigTest : public ::testing::Test {
protected:
    void SetUp() override { fake_env().clear(); }
};

TEST_F(ConfigTest, DefaultsMatchTheLimits) {
    auto config = server::parse_config({}, lookup);
    ASSERT_TRUE(config.ok());
    EXPECT_EQ(config->server.bind, "0.0.0.0");
    EXPECT_EQ(config->server.port, 8080);
    EXPECT_EQ(config->db, "data/chessence.db");
    EXPECT_EQ(config->server.web_root, "web-client");
    EXPECT_EQ(config->server.limits.max_frame_bytes, server::default_max_frame_bytes);
    EXPECT_EQ(config->server.limits.max_queue, server::default_max_queue);
    EXPECT_EQ(config->server.limits.rate_per_second, server::default_rate_per_second);
    EXPECT_EQ(config->server.limits.idle_timeout, server::default_idle_timeout);
    EXPECT_EQ(config->server.limits.seek_grace, server::default_seek_grace);
    EXPECT_EQ(config->server.limits.invite_ttl, server::default_invite_ttl);
}

TEST_F(ConfigTest, FlagsWinOverEnvironment) {
    fake_env()["CHESSENCE_PORT"] = "9000";
    fake_env()["CHESSENCE_DB"] = ":memory:";
    fake_env()["CHESSENCE_RATE"] = "7";
    auto config = server::parse_config(
        {"--port", "0", "--max-frame=4096", "--bind", "127.0.0.1", "--idle-timeout", "5",
         "--max-queue", "32", "--seek-grace", "12", "--invite-ttl=600"},
        lookup);
    ASSERT_TRUE(config.ok()) << config.error();
    EXPECT_EQ(config->server.port, 0);
    EXPECT_EQ(config->db, ":memory:");
    EXPECT_EQ(config->server.limits.rate_per_second, 7);
    EXPECT_EQ(config->server.limits.max_frame_bytes, 4096u);
    EXPECT_EQ(config->server.bind, "127.0.0.1");
    EXPECT_EQ(config->server.limits.idle_timeout, std::chrono::seconds(5));
    EXPECT_EQ(config->server.limits.max_queue, 32u);
    EXPECT_EQ(config->server.limits.seek_grace, std::chrono::seconds(12));
    EXPECT_EQ(config->server.limits.invite_ttl, std::chrono::seconds(600));
}

// Issue 25: the computer players' threads and queue.
TEST_F(ConfigTest, BotThreadsAndQueue) {
    auto defaults = server::parse_config({}, lookup);
    ASSERT_TRUE(defaults.ok());
    EXPECT_EQ(defaults->server.limits.bot_threads, server::default_bot_threads());
    EXPECT_EQ(defaults->server.limits.bot_queue, server::default_bot_queue);
    fake_env()["CHESSENCE_BOT_QUEUE"] = "5";
    auto config = server::parse_config({"--bot-threads", "0"}, lookup);
    ASSERT_TRUE(config.ok()) << config.error();
    EXPECT_EQ(config->server.limits.bot_threads, 0);
    EXPECT_EQ(config->server.limits.bot_queue, 5);
    EXPECT_FALSE(server::parse_config({"--bot-queue", "0"}, lookup).ok());
    EXPECT_FALSE(server::parse_config({"--bot-threads", "-1"}, lookup).ok());
}

// Issue 25: the puzzle bank's file.
// Issue 27: cluster mode's settings; a node alone by default.
TEST_F(ConfigTest, ClusterSettings) {
    auto alone = server::parse_config({}, lookup);
    ASSERT_TRUE(alone.ok()) << alone.error();
    EXPECT_EQ(alone->server.redis, "");
    EXPECT_EQ(alone->server.node_id, "");
    EXPECT_EQ(alone->server.lease_ms, 5000);
    fake_env()["CHESSENCE_REDIS"] = "redis://redis:6379";
    // Issue 42: cluster mode on a store of the node's own is refused, naming why.
    for (const auto& own : {":memory:", "data/chessence.db"}) {
        auto refused = server::parse_config({"--db", own}, lookup);
        ASSERT_FALSE(refused.ok()) << own;
        EXPECT_NE(refused.error().find("PostgreSQL"), std::string::npos) << refused.error();
        EXPECT_NE(refused.error().find(own), std::string::npos) << refused.error();
    }
    fake_env()["CHESSENCE_DB"] = "postgresql://chessence@db/chessence";
    fake_env()["CHESSENCE_NODE_ID"] = "node-a";
    auto config = server::parse_config({"--lease-ms", "2000"}, lookup);
    ASSERT_TRUE(config.ok()) << config.error();
    EXPECT_EQ(config->server.redis, "redis://redis:6379");
    EXPECT_EQ(config->server.node_id, "node-a");
    EXPECT_EQ(config->server.lease_ms, 2000);
    for (const auto& bad : {std::vector<std::string>{"--redis", "http://redis:6379"},
                            std::vector<std::string>{"--node-id", "a b"},
                            std::vector<std::string>{"--lease-ms", "100"},
                            std::vector<std::string>{"--lease-ms", "120001"}}) {
        auto refused = server::parse_config(bad, lookup);
        ASSERT_FALSE(refused.ok()) << bad[0] << " " << bad[1];
        EXPECT_NE(refused.error().find(bad[0]), std::string::npos) << refused.error();
    }
}

// Issue 42: how long a call to PostgreSQL may wait; 5 s by default.
TEST_F(ConfigTest, StoreTimeout) {
    auto defaults = server::parse_config({}, lookup);
    ASSERT_TRUE(defaults.ok()) << defaults.error();
    EXPECT_EQ(defaults->store_timeout_ms, 5000);
    fake_env()["CHESSENCE_STORE_TIMEOUT_MS"] = "2500";
    auto from_env = server::parse_config({}, lookup);
    ASSERT_TRUE(from_env.ok()) << from_env.error();
    EXPECT_EQ(from_env->store_timeout_ms, 2500);
    auto from_flag = server::parse_config({"--store-timeout-ms", "800"}, lookup);
    ASSERT_TRUE(from_flag.ok()) << from_flag.error();
    EXPECT_EQ(from_flag->store_timeout_ms, 800);
    for (const auto* bad : {"99", "600001", "5s"}) {
        auto refused = server::parse_config({"--store-timeout-ms", bad}, lookup);
        ASSERT_FALSE(refused.ok()) << bad;
        EXPECT_NE(refused.error().find("--store-timeout-ms"), std::string::npos) << refused.error();
    }
}

TEST_F(ConfigTest, PuzzleBankFile) {
    auto defaults = server::parse_config({}, lookup);
    ASSERT_TRUE(defaults.ok());
    EXPECT_EQ(defaults->server.puzzles, "puzzles/bank.json");
    fake_env()["CHESSENCE_PUZZLES"] = "/srv/puzzles.json";
    auto from_env = server::parse_config({}, lookup);
    ASSERT_TRUE(from_env.ok()) << from_env.error();
    EXPECT_EQ(from_env->server.puzzles, "/srv/puzzles.json");
    auto from_flag = server::parse_config({"--puzzles", "mine.json"}, lookup);
    ASSERT_TRUE(from_flag.ok()) << from_flag.error();
    EXPECT_EQ(from_flag->server.puzzles, "mine.json");
    EXPECT_FALSE(server::parse_config({"--puzzles", ""}, lookup).ok());
    EXPECT_NE(server::usage_text().find("CHESSENCE_PUZZLES"), std::string::npos);
}

TEST_F(ConfigTest, BadValuesAreNamed) {
    for (const auto& args : std::vector<std::vector<std::string>>{{"--port", "70000"},
                                                                  {"--port", "80a"},
                                                                  {"--port"},
                                                                  {"--rate", "0"},
                                                                  {"--invite-ttl", "59"},
                                                                  {"--seek-grace", "0"},
                                                                  {"--log-level", "chatty"},
                                                                  {"--colour", "blue"},
                                                                  {"--db", ""},
                                                                  {"--threads", "65"},
                                                                  {"--max-frame", "255"}}) {
        auto config = server::parse_config(args, lookup);
        ASSERT_FALSE(config.ok()) << args[0];
        EXPECT_NE(config.error().find(args[0]), std::string::npos) << config.error();
    }
    fake_env()["CHESSENCE_MAX_QUEUE"] = "lots";
    auto config = server::parse_config({}, lookup);
    ASSERT_FALSE(config.ok());
    EXPECT_NE(config.error().find("CHESSENCE_MAX_QUEUE"), std::string::npos);
}

TEST_F(ConfigTest, NumbersAreDecimalAndTheLastFlagWins) {
    auto config = server::parse_config(
        {"--port", "010", "--threads=3", "--rate", "5", "--rate", "9", "--idle-timeout", "90"},
        lookup);
    ASSERT_TRUE(config.ok()) << config.error();
    EXPECT_EQ(config->server.port, 10);  // not octal
    EXPECT_EQ(config->server.threads, 3);
    EXPECT_EQ(config->server.limits.rate_per_second, 9);
    EXPECT_EQ(config->server.limits.idle_timeout, std::chrono::seconds(90));
    for (const char* text : {"0x10", "1e3", "+5", "-1", " 5", "5 "}) {
        EXPECT_FALSE(server::parse_config({"--threads", text}, lookup).ok()) << text;
    }
}

TEST_F(ConfigTest, EnvironmentValuesAreTakenVerbatim) {
    fake_env()["CHESSENCE_DB"] = "-odd name.db";
    fake_env()["CHESSENCE_LOG_LEVEL"] = "debug";
    auto config = server::parse_config({}, lookup);
    ASSERT_TRUE(config.ok()) << config.error();
    EXPECT_EQ(config->db, "-odd name.db");
    EXPECT_EQ(config->log_level, "debug");
    fake_env()["CHESSENCE_DB"] = "";
    auto empty = server::parse_config({}, lookup);
    ASSERT_FALSE(empty.ok());
    EXPECT_NE(empty.error().find("CHESSENCE_DB"), std::string::npos) << empty.error();
    EXPECT_NE(empty.error().find("must not be empty"), std::string::npos) << empty.error();
}

// Issue 43: the scheduled arenas: the default schedule, a file that replaces it, off with one
// flag or variable.
std::string schedule_file(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() /
                      ("chessence_schedule_" + std::to_string(::getpid()) + "_" + name);
    std::ofstream(path) << text;
    return path.string();
}

TEST_F(ConfigTest, ScheduledTournamentsAreOnWithTheDefaultSchedule) {
    auto config = server::parse_config({}, lookup);
    ASSERT_TRUE(config.ok()) << config.error();
    EXPECT_TRUE(config->server.scheduled_tournaments);
    EXPECT_EQ(config->server.tournament_schedule, server::tournament::default_schedule());
}

TEST_F(ConfigTest, ScheduledTournamentsOffWithOneFlagOrVariable) {
    auto flagged = server::parse_config({"--no-scheduled-tournaments"}, lookup);
    ASSERT_TRUE(flagged.ok()) << flagged.error();
    EXPECT_FALSE(flagged->server.scheduled_tournaments);
    fake_env()["CHESSENCE_SCHEDULED_TOURNAMENTS"] = "0";
    auto by_env = server::parse_config({}, lookup);
    ASSERT_TRUE(by_env.ok()) << by_env.error();
    EXPECT_FALSE(by_env->server.scheduled_tournaments);
    auto flag_wins = server::parse_config({"--scheduled-tournaments", "1"}, lookup);
    ASSERT_TRUE(flag_wins.ok()) << flag_wins.error();
    EXPECT_TRUE(flag_wins->server.scheduled_tournaments);
    fake_env()["CHESSENCE_SCHEDULED_TOURNAMENTS"] = "no";
    const auto bad = server::parse_config({}, lookup);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("CHESSENCE_SCHEDULED_TOURNAMENTS"), std::string::npos)
        << bad.error();
}

TEST_F(ConfigTest, AScheduleFileReplacesTheDefault) {
    const auto path = schedule_file("good.json", R"({"arenas": [{"name": "Nightly",
        "variant": "chesica", "clock": {"initial": 300, "increment": 0}, "minutes": 60,
        "every": "daily", "at": "22:00"}]})");
    auto by_flag = server::parse_config({"--tournament-schedule", path}, lookup);
    ASSERT_TRUE(by_flag.ok()) << by_flag.error();
    ASSERT_EQ(by_flag->server.tournament_schedule.size(), 1u);
    EXPECT_EQ(by_flag->server.tournament_schedule[0].name, "Nightly");
    EXPECT_EQ(by_flag->server.tournament_schedule[0].every.at_minute, 22 * 60);
    fake_env()["CHESSENCE_TOURNAMENT_SCHEDULE"] = path;
    auto by_env = server::parse_config({}, lookup);
    ASSERT_TRUE(by_env.ok()) << by_env.error();
    EXPECT_EQ(by_env->server.tournament_schedule, by_flag->server.tournament_schedule);
    std::filesystem::remove(path);
}

TEST_F(ConfigTest, ABadScheduleFileIsAStartUpErrorNamingTheProblem) {
    const auto path = schedule_file("bad.json", R"({"arenas": [{"name": "Short",
        "variant": "chessence", "clock": {"initial": 180, "increment": 2}, "minutes": 5,
        "every": "hourly"}]})");
    const auto bad = server::parse_config({"--tournament-schedule", path}, lookup);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find(path), std::string::npos) << bad.error();
    EXPECT_NE(bad.error().find("arenas[0] (Short): `minutes`"), std::string::npos) << bad.error();
    std::filesystem::remove(path);
    const auto missing = server::parse_config({"--tournament-schedule", path}, lookup);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().find("cannot open it"), std::string::npos) << missing.error();
}

TEST_F(ConfigTest, HelpIsAskedFor) {
    EXPECT_FALSE(server::parse_config({}, lookup)->help);
    EXPECT_TRUE(server::parse_config({"--help"}, lookup)->help);
    EXPECT_TRUE(server::parse_config({"--port", "0", "-h"}, lookup)->help);
}

TEST_F(ConfigTest, UsageListsEveryFlagWithItsEnvironmentAndDefault) {
    const auto usage = server::usage_text();
    for (const char* flag :
         {"--bind", "--port", "--db", "--web-root", "--log-level", "--max-frame", "--max-queue",
          "--rate", "--idle-timeout", "--seek-grace", "--invite-ttl", "--threads", "--help",
          "--tournament-schedule", "--no-scheduled-tournaments"}) {
        EXPECT_NE(usage.find(flag), std::string::npos) << flag;
    }
    for (const char* env : {"CHESSENCE_BIND", "CHESSENCE_PORT", "CHESSENCE_DB",
                            "CHESSENCE_WEB_ROOT", "CHESSENCE_LOG_LEVEL", "CHESSENCE_MAX_FRAME",
                            "CHESSENCE_MAX_QUEUE", "CHESSENCE_RATE", "CHESSENCE_IDLE_TIMEOUT",
                            "CHESSENCE_SEEK_GRACE", "CHESSENCE_INVITE_TTL", "CHESSENCE_THREADS",
                            "CHESSENCE_TOURNAMENT_SCHEDULE", "CHESSENCE_SCHEDULED_TOURNAMENTS"}) {
        EXPECT_NE(usage.find(env), std::string::npos) << env;
    }
    for (const char* shown : {"=8080", "=data/chessence.db", "=0.0.0.0", "=info", "0..65535"}) {
        EXPECT_NE(usage.find(shown), std::string::npos) << shown;
    }
}

}  // namespace
