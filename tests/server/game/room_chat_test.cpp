// Issue 23: once a game is over its spectators' chat closes; its players may still talk.
#include <gtest/gtest.h>

#include "server/game_table.h"

namespace {

using test::json;

TEST(RoomChat, SpectatorsMayChatOnlyWhileTheGamePlays) {
    test::TestServer server(test::fast_limits());
    test::Table table(server.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    const auto said = [&](test::WsClient& who, const std::string& id) {
        who.send({{"type", "chat"}, {"game_id", table.game_id}, {"text", "hello"}, {"id", id}});
        return who.wait_for([&](const json& m) { return m.value("id", json()) == id; });
    };
    EXPECT_EQ(said(*table.sam, "during")["type"], "ack");
    table.ann->send({{"type", "resign"}, {"game_id", table.game_id}});
    table.sam->wait_for([](const json& m) {
        return m.value("type", "") == "event" && m["event"].value("kind", "") == "game_over";
    });
    const auto closed = said(*table.sam, "after");
    EXPECT_EQ(closed["type"], "error");
    EXPECT_EQ(closed["code"], "game_over");
    EXPECT_EQ(said(*table.bob, "gg")["type"], "ack") << "the players still talk";
}

}  // namespace
