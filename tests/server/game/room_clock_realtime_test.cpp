// The one test of the clocks in real time: a 15-second game over real sockets, in which White does
// not move after both first moves; the server ends it by itself when White's time is gone.
#include "server/game/room.h"

#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include "server/game_table.h"

namespace {

using namespace std::chrono_literals;
using test::json;
using test::Table;

TEST(RoomClockRealTime, AFifteenSecondGameFlagsOnTimeOverRealSockets) {
    test::TestServer server(test::fast_limits());
    Table table(server.port(), "chesica", 1, false, {{"initial", 15}, {"increment", 0}});
    ASSERT_FALSE(table.game_id.empty());
    json legal = table.start["legal"];
    json clock_started;
    auto started_at = std::chrono::steady_clock::now();
    for (const char* mover : {"white", "black"}) {
        table.seat_named(mover).send(
            {{"type", "move"}, {"game_id", table.game_id}, {"move", legal[0]}});
        // The moment the mover's own acknowledgement arrives: White's clock started just before.
        const auto ack = table.seat_named(mover).wait_for([&](const json& m) {
            return m.value("type", "") == "event" && m.value("version", 0) == table.version + 1;
        });
        started_at = std::chrono::steady_clock::now();
        ++table.version;
        legal = ack["event"]["legal"];
        clock_started = ack["event"]["clock"];
    }
    EXPECT_EQ(test::reading(clock_started),
              (json{{"white", 15000}, {"black", 15000}, {"running", "white"}}));
    const auto over = table.ann->wait_for(
        [](const json& m) {
            return m.value("type", "") == "event" && m["event"].value("kind", "") == "game_over";
        },
        20s);
    const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started_at);
    ASSERT_TRUE(over.is_object());
    EXPECT_EQ(over["event"]["result"], (json{{"winner", "black"}, {"reason", "timeout"}}));
    EXPECT_EQ(test::reading(over["event"]["clock"]),
              (json{{"white", 0}, {"black", 15000}, {"running", nullptr}}));
    // White's clock started on the server before the acknowledgement reached Black; the flag may
    // not come before 15 s less that delivery, and the server ends the game as it falls.
    std::cout << "flag seen " << elapsed.count() - 15000 << " ms after White's 15 s\n";
    EXPECT_GE(elapsed.count(), 15000 - 100);
    EXPECT_LE(elapsed.count(), 15000 + 1000);
    for (auto* client : {table.bob.get(), table.sam.get()}) {
        const auto seen = client->wait_for([](const json& m) {
            return m.value("type", "") == "event" && m["event"].value("kind", "") == "game_over";
        });
        EXPECT_EQ(seen["event"], over["event"]);
    }
}

}  // namespace
