#include "server/log.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace {

// Restores the default level after each test (the registry is process-wide).
class Log : public ::testing::Test {
protected:
    void TearDown() override { server::set_log_level("info"); }
};

TEST_F(Log, OneLoggerPerComponent) {
    const auto& ws = server::component_logger("ws");
    EXPECT_EQ(ws->name(), "ws");
    EXPECT_EQ(&server::component_logger("ws"), &ws);
    EXPECT_EQ(server::component_logger("ws").get(), ws.get());
    EXPECT_NE(server::component_logger("lobby").get(), ws.get());
    const auto& fresh = server::component_logger("log_test_component");
    EXPECT_EQ(fresh->name(), "log_test_component");
    EXPECT_EQ(server::component_logger("log_test_component").get(), fresh.get());
}

TEST_F(Log, LevelChangesReachPresentAndFutureLoggers) {
    const auto& room = server::component_logger("room");
    EXPECT_TRUE(server::set_log_level("warn"));
    EXPECT_EQ(room->level(), spdlog::level::warn);
    EXPECT_EQ(server::component_logger("log_test_later")->level(), spdlog::level::warn);
    EXPECT_TRUE(server::set_log_level("off"));
    EXPECT_EQ(room->level(), spdlog::level::off);
    EXPECT_FALSE(server::set_log_level("chatty"));
    EXPECT_EQ(room->level(), spdlog::level::off);
    EXPECT_TRUE(server::set_log_level("debug"));
    EXPECT_EQ(room->level(), spdlog::level::debug);
}

TEST_F(Log, LevelNames) {
    for (const char* level : {"trace", "debug", "info", "warn", "error", "critical", "off"}) {
        EXPECT_TRUE(server::is_log_level(level)) << level;
    }
    for (const char* level : {"", "chatty", "INFO!", "of"}) {
        EXPECT_FALSE(server::is_log_level(level)) << level;
    }
}

// Many threads look up loggers (known ones and new ones) while the level changes: every lookup of
// a name gives the same logger.
TEST_F(Log, ConcurrentLookupsAgree) {
    std::vector<std::thread> threads;
    std::atomic<int> mismatches{0};
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([t, &mismatches] {
            for (int i = 0; i < 2000; ++i) {
                const auto name = "log_test_thread_" + std::to_string(i % 5);
                const auto* first = server::component_logger(name).get();
                if (server::component_logger(name).get() != first ||
                    server::component_logger("http")->name() != "http") {
                    ++mismatches;
                }
                if (t == 0 && i % 100 == 0) {
                    server::set_log_level(i % 200 == 0 ? "debug" : "info");
                }
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
