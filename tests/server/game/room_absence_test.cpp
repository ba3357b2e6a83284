// Issue 26, item 3: a game both players have left. After lobby_away_after it leaves the lobby's
// list of games in progress and comes back with either player; an unlimited game (no clock will
// ever end it) both have left for abandoned_unlimited_after ends by itself.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "server/game/timed_room_test.h"
#include "server/lobby_view.h"

namespace {

using namespace std::chrono_literals;
using test::json;
using test::Table;
using test::WsClient;

class RoomAbsence : public test::TimedRoomTest {
protected:
    // Both players close their connections; returns once the spectator saw both offline.
    static void both_leave(Table& table) {
        table.ann->close();
        table.bob->close();
        table.sam->wait_for([](const json& m) {
            if (m.value("type", "") != "presence") {
                return false;
            }
            for (const auto& [seat, online] : m["online"].items()) {
                if (online.get<bool>()) {
                    return false;
                }
            }
            return true;
        });
    }

    // Whether a new lobby subscriber finds the game in its first list. After a room barrier the
    // room's word to the lobby is on the lobby's strand before the subscription.
    bool listed_for_newcomer(const std::string& game_id) {
        WsClient newcomer(server_.port());
        newcomer.hello();
        newcomer.send({{"type", "lobby_subscribe"}, {"id", "sub"}});
        newcomer.wait_type("lobby");
        return test::lobby_view(newcomer).has_game(game_id);
    }

    // The spectator's event of `version` (the players are gone).
    static json spectator_event(Table& table, std::int64_t version) {
        const auto found = table.sam->wait_for([&](const json& m) {
            return m.value("type", "") == "event" && m.value("version", 0) == version;
        });
        return found.is_object() ? found["event"] : json(nullptr);
    }
};

TEST_F(RoomAbsence, AGameBothPlayersLeftLeavesTheLobbyAndComesBackWithEither) {
    Table table(server_.port(), "chessence");  // unlimited
    play(table);
    play(table);
    ASSERT_TRUE(listed_for_newcomer(table.game_id));
    WsClient subscriber(server_.port());
    subscriber.hello();
    subscriber.send({{"type", "lobby_subscribe"}, {"id", "sub"}});
    subscriber.wait_type("lobby");

    both_leave(table);
    time_->advance(4min);
    table.room_barrier(*table.sam);
    EXPECT_TRUE(listed_for_newcomer(table.game_id)) << "four minutes away: still listed";
    time_->advance(1min);
    table.room_barrier(*table.sam);
    EXPECT_FALSE(listed_for_newcomer(table.game_id)) << "five minutes away: not listed";
    EXPECT_FALSE(
        test::wait_lobby(subscriber,
                         [&](const test::LobbyView& v) { return !v.has_game(table.game_id); })
            .has_game(table.game_id))
        << "the subscriber is told";

    WsClient ann(server_.port());
    ann.hello(table.ann_token);
    ann.send({{"type", "watch"}, {"game_id", table.game_id}, {"id", "back"}});
    ann.wait_type("snapshot");
    EXPECT_TRUE(test::wait_lobby(
                    subscriber, [&](const test::LobbyView& v) { return v.has_game(table.game_id); })
                    .has_game(table.game_id))
        << "listed again once a player is back";
}

TEST_F(RoomAbsence, AnUnlimitedGameBothPlayersLeftForThreeDaysIsDrawnAsAbandoned) {
    Table table(server_.port(), "chesica");
    play(table);
    play(table);
    both_leave(table);
    time_->advance(71h);
    table.room_barrier(*table.sam);
    EXPECT_TRUE(table.snapshot(*table.sam)["result"].is_null()) << "71 hours: still going";
    time_->advance(1h);
    const auto over = spectator_event(table, ++table.version);
    EXPECT_EQ(over["result"], (json{{"winner", nullptr}, {"reason", "abandoned"}}));
    EXPECT_EQ(server_.store().game(table.game_id).value()->status, "finished");
}

TEST_F(RoomAbsence, BeforeBothHaveMovedItIsAborted) {
    Table table(server_.port(), "chessence");
    play(table);
    both_leave(table);
    time_->advance(72h);
    const auto over = spectator_event(table, ++table.version);
    EXPECT_EQ(over["result"], (json{{"winner", nullptr}, {"reason", "aborted"}}));
}

TEST_F(RoomAbsence, OnePlayerStayingKeepsTheGameGoing) {
    Table table(server_.port(), "chessence");
    play(table);
    play(table);
    table.bob->close();
    time_->advance(100h);
    table.room_barrier(*table.ann);
    EXPECT_TRUE(table.snapshot(*table.ann)["result"].is_null()) << "Ann may claim; nothing ends it";
    EXPECT_TRUE(listed_for_newcomer(table.game_id));
}

}  // namespace
