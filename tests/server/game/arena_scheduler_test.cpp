// Scheduled arenas on a real server (issue 43, slice 3): with the default schedule the server
// creates one upcoming arena per game, the next ones once the hour has come, none twice across a
// restart; with scheduling off, none.
#include "server/game/arena_scheduler.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <thread>

#include "server/manual_time.h"
#include "server/test_support.h"
#include "server/tournament/arena_schedule.h"

namespace {

using namespace std::chrono_literals;
using test::json;

constexpr std::int64_t scheduler_hour_ms = 3'600'000;

json listed_arenas(std::uint16_t port) {
    const auto answer = test::http_get(port, "/api/tournament");
    EXPECT_EQ(answer.status, 200) << answer.body;
    return json::parse(answer.body, nullptr, false);
}

std::size_t arenas_with_status(std::uint16_t port, const char* status) {
    const auto list = listed_arenas(port);
    return list.is_object() && list[status].is_array() ? list[status].size() : 0;
}

std::int64_t manual_now_ms(const test::ManualTime& time) {
    return server::unix_ms(time.now());
}

// The next whole hour after `ms`.
std::int64_t next_whole_hour(std::int64_t ms) {
    return (ms / scheduler_hour_ms + 1) * scheduler_hour_ms;
}

// Every stored tournament, as "<name>@<start>" → how many have it.
std::map<std::string, int> stored_schedule_keys(server::Store& store) {
    std::map<std::string, int> keys;
    for (const char* status : {"created", "started", "finished"}) {
        for (const auto& record : store.tournaments({status, "", 1000}).value()) {
            ++keys[server::tournament::schedule_key(record.name, record.starts_at)];
        }
    }
    return keys;
}

TEST(ArenaScheduler, DefaultScheduleKeepsOneUpcomingArenaPerGame) {
    auto time = std::make_shared<test::ManualTime>();
    test::TestServer server(test::fast_limits(), nullptr, time, true);
    ASSERT_TRUE(
        test::eventually([&] { return arenas_with_status(server.port(), "created") == 3; }));
    const auto first_start = next_whole_hour(manual_now_ms(*time));
    auto list = listed_arenas(server.port());
    std::map<std::string, json> by_variant;
    for (const auto& arena : list["created"]) {
        by_variant[arena["variant"]["key"]] = arena;
    }
    ASSERT_EQ(by_variant.size(), 3u) << list.dump();
    for (const auto& [variant, arena] : by_variant) {
        EXPECT_EQ(arena["createdBy"], "chessence") << "the server's own: " << arena.dump();
        EXPECT_EQ(arena["startsAt"], first_start) << arena.dump();
        EXPECT_EQ(arena["finishesAt"], first_start + 57 * 60'000) << arena.dump();
        EXPECT_EQ(arena["minutes"], 57);
        EXPECT_EQ(arena["rated"], true);
        EXPECT_EQ(arena["berserkable"], true);
        EXPECT_EQ(arena["private"], false);
    }
    EXPECT_EQ(by_variant["chessence"]["fullName"], "Hourly Chessence Arena");
    EXPECT_EQ(by_variant["chessence"]["clock"], json({{"limit", 180}, {"increment", 2}}));
    EXPECT_EQ(by_variant["chesica"]["clock"], json({{"limit", 180}, {"increment", 2}}));
    EXPECT_EQ(by_variant["sniderman"]["clock"], json({{"limit", 300}, {"increment", 3}}));

    // The hour comes: those three start and the next hour's three are created.
    time->advance(std::chrono::milliseconds(first_start - manual_now_ms(*time) + 1'000));
    ASSERT_TRUE(test::eventually(
        [&] {
            return arenas_with_status(server.port(), "started") == 3 &&
                   arenas_with_status(server.port(), "created") == 3;
        },
        10s))
        << listed_arenas(server.port()).dump();
    const auto listed = listed_arenas(server.port());
    for (const auto& arena : listed["created"]) {
        EXPECT_EQ(arena["startsAt"], first_start + scheduler_hour_ms) << arena.dump();
    }

    // A restart creates none of them again, and shows the server as their creator.
    server.restart();
    ASSERT_TRUE(server.server());
    time->advance(10min);  // a pass on the jump besides the start-up one
    std::this_thread::sleep_for(300ms);
    auto keys = stored_schedule_keys(server.store());
    EXPECT_EQ(keys.size(), 6u);
    for (const auto& [key, times] : keys) {
        EXPECT_EQ(times, 1) << key;
    }
    const auto upcoming = listed_arenas(server.port())["created"];
    ASSERT_EQ(upcoming.size(), 3u) << upcoming.dump();
    test::WsClient watcher(server.port());
    watcher.hello();
    watcher.send({{"type", "tournament_watch"},
                  {"tournament_id", upcoming[0]["id"].get<std::string>()},
                  {"id", "w"}});
    const auto shown = watcher.wait_type("tournament");
    EXPECT_EQ(shown["tournament"]["created_by"], "Chessence Server") << shown.dump();

    // The next hour after the restart: three more, still each once.
    time->advance(
        std::chrono::milliseconds(first_start + scheduler_hour_ms - manual_now_ms(*time) + 1'000));
    ASSERT_TRUE(
        test::eventually([&] { return stored_schedule_keys(server.store()).size() == 9; }, 10s));
    std::this_thread::sleep_for(300ms);
    keys = stored_schedule_keys(server.store());
    EXPECT_EQ(keys.size(), 9u);
    for (const auto& [key, times] : keys) {
        EXPECT_EQ(times, 1) << key;
    }
}

TEST(ArenaScheduler, OffCreatesNone) {
    auto time = std::make_shared<test::ManualTime>();
    test::TestServer server(test::fast_limits(), nullptr, time, false);
    std::this_thread::sleep_for(300ms);
    time->advance(std::chrono::milliseconds(scheduler_hour_ms));
    std::this_thread::sleep_for(300ms);
    EXPECT_EQ(arenas_with_status(server.port(), "created"), 0u);
    EXPECT_TRUE(server.store().unfinished_tournaments().value().empty());
}

}  // namespace
