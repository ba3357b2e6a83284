#pragma once
// A real server whose rooms read a hand-moved clock, and the moves and requests the clock tests
// make on a Table: the shared fixture of the takeback and clock-request tests.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "server/game_table.h"
#include "server/manual_time.h"

namespace test {

// A clock reading as the tests write it: each seat's milliseconds left and whose clock runs.
inline json clocks(std::int64_t white, std::int64_t black, const json& running) {
    return {{"white", white}, {"black", black}, {"running", running}};
}

// The side to move plays its first legal move; returns the move event.
inline json play_first_legal(Table& table) {
    const auto now = table.snapshot(*table.sam);
    auto& mover = table.seat_named(now["to_move"].get<std::string>());
    mover.send({{"type", "move"}, {"game_id", table.game_id}, {"move", now["legal"][0]}});
    return table.event(++table.version);
}

class TimedRoomTest : public ::testing::Test {
protected:
    static server::Limits limits() {
        auto limits = fast_limits();
        limits.lag_probe_interval = std::chrono::milliseconds(0);
        return limits;
    }

    static json play(Table& table) { return play_first_legal(table); }

    static void send(Table& table, WsClient& client, const std::string& type) {
        client.send({{"type", type}, {"game_id", table.game_id}});
    }

    // Sends `type` for the game from `client` and returns the error code answering it.
    static std::string refused(Table& table, WsClient& client, const std::string& type) {
        const std::string id = type + std::to_string(++table.requests);
        client.send({{"type", type}, {"game_id", table.game_id}, {"id", id}});
        return client.wait_error(id).value("code", "");
    }

    std::shared_ptr<ManualTime> time_ = std::make_shared<ManualTime>();
    TestServer server_{limits(), nullptr, time_};
};

}  // namespace test
