#include "server/config.h"

#include <gtest/gtest.h>

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
}

TEST_F(ConfigTest, FlagsWinOverEnvironment) {
    fake_env()["CHESSENCE_PORT"] = "9000";
    fake_env()["CHESSENCE_DB"] = ":memory:";
    fake_env()["CHESSENCE_RATE"] = "7";
    auto config = server::parse_config({"--port", "0", "--max-frame=4096", "--bind", "127.0.0.1",
                                        "--idle-timeout", "5", "--max-queue", "32"},
                                       lookup);
    ASSERT_TRUE(config.ok()) << config.error();
    EXPECT_EQ(config->server.port, 0);
    EXPECT_EQ(config->db, ":memory:");
    EXPECT_EQ(config->server.limits.rate_per_second, 7);
    EXPECT_EQ(config->server.limits.max_frame_bytes, 4096u);
    EXPECT_EQ(config->server.bind, "127.0.0.1");
    EXPECT_EQ(config->server.limits.idle_timeout, std::chrono::seconds(5));
    EXPECT_EQ(config->server.limits.max_queue, 32u);
}

TEST_F(ConfigTest, BadValuesAreNamed) {
    for (const auto& args : std::vector<std::vector<std::string>>{{"--port", "70000"},
                                                                  {"--port", "80a"},
                                                                  {"--port"},
                                                                  {"--rate", "0"},
                                                                  {"--log-level", "chatty"},
                                                                  {"--colour", "blue"},
                                                                  {"--db", ""}}) {
        auto config = server::parse_config(args, lookup);
        ASSERT_FALSE(config.ok()) << args[0];
        EXPECT_NE(config.error().find(args[0]), std::string::npos) << config.error();
    }
    fake_env()["CHESSENCE_MAX_QUEUE"] = "lots";
    auto config = server::parse_config({}, lookup);
    ASSERT_FALSE(config.ok());
    EXPECT_NE(config.error().find("CHESSENCE_MAX_QUEUE"), std::string::npos);
}

TEST_F(ConfigTest, UsageListsEveryFlag) {
    const auto usage = server::usage_text();
    for (const char* flag : {"--bind", "--port", "--db", "--web-root", "--log-level", "--max-frame",
                             "--max-queue", "--rate", "--idle-timeout", "CHESSENCE_WEB_ROOT"}) {
        EXPECT_NE(usage.find(flag), std::string::npos) << flag;
    }
}

}  // namespace
