// Issue 22: every game request with an id gets a reply; more time has a limit; a catch-up gives
// each move the position it left at the time; an invitation link works as soon as it is shown.
#include "server/game/room.h"

#include <gtest/gtest.h>

#include "server/game/timed_room_test.h"
#include "server/game_table.h"
#include "server/test_stores.h"

namespace {

using namespace std::chrono_literals;
using test::json;
using test::Table;

class RoomRequests : public test::TimedRoomTest {};

json ack_for(test::WsClient& client, const json& id) {
    return client.wait_for(
        [&](const json& m) { return m.value("type", "") == "ack" && m["id"] == id; });
}

TEST_F(RoomRequests, EveryRequestWithAnIdGetsAReply) {
    Table table(server_.port(), "chesica");
    const auto legal = table.snapshot(*table.sam)["legal"];
    table.ann->send(
        {{"type", "move"}, {"game_id", table.game_id}, {"move", legal[0]}, {"id", "m1"}});
    const auto moved = table.event(++table.version);
    auto ack = ack_for(*table.ann, "m1");
    EXPECT_EQ(ack["game_id"], table.game_id);
    EXPECT_EQ(ack["version"], table.version) << "the ack follows the move's event";

    table.ann->send({{"type", "draw_offer"}, {"game_id", table.game_id}, {"id", "d1"}});
    table.event(++table.version);
    EXPECT_EQ(ack_for(*table.ann, "d1")["version"], table.version);
    // Offering again changes nothing, and is still answered.
    table.ann->send({{"type", "draw_offer"}, {"game_id", table.game_id}, {"id", "d2"}});
    EXPECT_EQ(ack_for(*table.ann, "d2")["version"], table.version);
    table.sam->send({{"type", "unwatch"}, {"game_id", table.game_id}, {"id", "u1"}});
    EXPECT_EQ(ack_for(*table.sam, "u1")["game_id"], table.game_id);
    EXPECT_EQ(table.ann->schema_violations(), 0u);
}

TEST_F(RoomRequests, EachPlayerMayGiveMoreTimeFiveTimesAGame) {
    Table table(server_.port(), "chesica", 1, false, {{"initial", 60}, {"increment", 0}});
    for (int i = 0; i < 5; ++i) {
        send(table, *table.bob, "moretime");
        EXPECT_EQ(table.event(++table.version)["kind"], "moretime");
    }
    EXPECT_EQ(refused(table, *table.bob, "moretime"), "rate_limited");
    EXPECT_EQ(test::reading(table.snapshot(*table.sam)["clock"])["white"], 60000 + 5 * 15000);
    send(table, *table.ann, "moretime");  // the other player's own five
    EXPECT_EQ(table.event(++table.version)["kind"], "moretime");
}

// c3-d4 (say), takeback, another move: a catch-up from 0 gives the first move its own position,
// not the position of the move that replaced it.
TEST_F(RoomRequests, ACatchUpAfterATakebackGivesEachMoveItsOwnPosition) {
    Table table(server_.port(), "chessence");
    const auto start = table.snapshot(*table.sam);
    const std::string first = start["legal"][0];
    const std::string second = start["legal"][1];
    table.ann->send({{"type", "move"}, {"game_id", table.game_id}, {"move", first}});
    const auto first_event = table.event(++table.version);
    send(table, *table.ann, "takeback_offer");
    table.event(++table.version);
    send(table, *table.bob, "takeback_accept");
    table.event(++table.version);
    table.ann->send({{"type", "move"}, {"game_id", table.game_id}, {"move", second}});
    const auto second_event = table.event(++table.version);
    ASSERT_NE(first_event["fen"], second_event["fen"]);

    test::WsClient late(server_.port());
    late.hello();
    late.send({{"type", "watch"}, {"game_id", table.game_id}, {"since", 0}, {"id", "w"}});
    const auto caught = late.wait_type("events");
    ASSERT_EQ(caught["events"].size(), 4u);
    EXPECT_EQ(caught["events"][0]["event"]["fen"], first_event["fen"]);
    EXPECT_EQ(caught["events"][3]["event"]["fen"], second_event["fen"]);
}

TEST(Invitations, AnInvitationLinkWorksAsSoonAsItIsShown) {
    auto store = std::make_unique<test::ControlledStore>();
    store->slow_seeks = true;  // the seek reaches the disk 300 ms after it is made
    test::TestServer server(test::fast_limits(), std::move(store));
    test::WsClient ann(server.port());
    ann.hello();
    ann.send({{"type", "seek_create"}, {"variant", "chesica"}, {"private", true}, {"id", "s"}});
    const auto created = ann.wait_type("seek_created");
    const std::string seek_id = created["seek"]["seek_id"];
    const auto page = test::http_get(server.port(), "/api/seeks/" + seek_id);
    EXPECT_EQ(page.status, 200) << page.body;
}

}  // namespace
