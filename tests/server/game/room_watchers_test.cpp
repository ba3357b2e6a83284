// Catching up: a watcher that missed events gets them in one frame, never counted against its
// outgoing queue; a gap beyond the bound gets a snapshot instead. A finished room leaves memory
// as soon as nobody watches it and it has nothing to do (issue 42), not only when a watcher goes.
#include <gtest/gtest.h>

#include "server/game_table.h"
#include "server/limits.h"

namespace {

using test::json;

// Appends 2 * pairs events to the table's game, from version `first` on: draw offers, each
// declined.
void offer_and_decline(test::Table& table, std::int64_t first, int pairs) {
    for (int i = 0; i < pairs; ++i) {
        table.ann->send({{"type", "draw_offer"}, {"game_id", table.game_id}});
        table.event(first + 2 * i);
        table.bob->send({{"type", "draw_decline"}, {"game_id", table.game_id}});
        table.event(first + 2 * i + 1);
    }
}

TEST(CatchUp, MoreEventsThanTheQueueHoldsArriveInOneFrame) {
    auto limits = test::fast_limits();
    limits.max_queue = 16;
    test::TestServer server(limits);
    test::Table table(server.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    const auto played = test::play_chess(table, test::capture_first, 10);
    ASSERT_EQ(played.moves.size(), 10u);
    offer_and_decline(table, 11, 20);  // 50 events in all, three times the queue

    test::WsClient late(server.port());
    late.hello(table.bob_token);
    late.send({{"type", "watch"}, {"game_id", table.game_id}, {"since", 0}, {"id", "w"}});
    const auto frame = late.wait_for([](const json& m) { return m.value("id", json()) == "w"; });
    ASSERT_EQ(frame["type"], "events");
    EXPECT_EQ(frame["version"], 50);
    ASSERT_EQ(frame["events"].size(), 50u);
    for (std::size_t i = 0; i < 50; ++i) {
        EXPECT_EQ(frame["events"][i]["version"], i + 1);
    }
    // Moves of the game carry the position after them; the frame ends with the position now.
    EXPECT_EQ(frame["events"][9]["event"]["move"], played.moves[9]);
    const auto now = table.snapshot(*table.sam);
    EXPECT_EQ(frame["events"][9]["event"]["fen"], now["fen"]);
    EXPECT_EQ(frame["position"]["fen"], now["fen"]);
    EXPECT_EQ(frame["position"]["legal"], now["legal"]);
    late.sync();
    EXPECT_FALSE(late.closed()) << "a catch-up never overflows the queue";
    EXPECT_EQ(late.schema_violations(), 0u);

    // Up to date: an empty catch-up that still answers the request.
    late.send({{"type", "watch"}, {"game_id", table.game_id}, {"since", 50}, {"id", "again"}});
    const auto empty =
        late.wait_for([](const json& m) { return m.value("id", json()) == "again"; });
    EXPECT_EQ(empty["type"], "events");
    EXPECT_TRUE(empty["events"].empty());
}

TEST(CatchUp, AGapBeyondTheBoundGetsASnapshot) {
    test::TestServer server(test::fast_limits());
    test::Table table(server.port(), "chessence");
    ASSERT_FALSE(table.game_id.empty());
    const int pairs = static_cast<int>(server::catch_up_max_events) / 2 + 5;
    offer_and_decline(table, 1, pairs);
    const auto total = 2 * pairs;

    test::WsClient late(server.port());
    late.hello(table.bob_token);
    late.send({{"type", "watch"}, {"game_id", table.game_id}, {"since", 0}, {"id", "far"}});
    const auto far = late.wait_for([](const json& m) { return m.value("id", json()) == "far"; });
    EXPECT_EQ(far["type"], "snapshot");
    EXPECT_EQ(far["version"], total);

    const auto since = total - static_cast<int>(server::catch_up_max_events);
    late.send({{"type", "watch"}, {"game_id", table.game_id}, {"since", since}, {"id", "near"}});
    const auto near = late.wait_for([](const json& m) { return m.value("id", json()) == "near"; });
    EXPECT_EQ(near["type"], "events");
    EXPECT_EQ(near["events"].size(), server::catch_up_max_events);
    EXPECT_FALSE(late.closed());
}

// GET /metrics: how many rooms the server holds.
double rooms_held_by(std::uint16_t port) {
    return test::metric_value(test::http_get(port, "/metrics").body, "chessence_rooms_in_memory");
}

// The answer to `client`'s request `request`, sent with `id`.
json answered(test::WsClient& client, json request, const std::string& id) {
    request["id"] = id;
    client.send(request);
    return client.wait_for([&](const json& m) { return m.value("id", json()) == id; });
}

TEST(FinishedRooms, ARoomIsReleasedOnceIdleWhetherOrNotAWatcherLeft) {
    test::TestServer server(test::fast_limits());
    std::string game_id;
    std::string ann_token;
    std::string bob_token;
    {
        test::Table table(server.port(), "chesica");
        ASSERT_FALSE(table.game_id.empty());
        game_id = table.game_id;
        ann_token = table.ann_token;
        bob_token = table.bob_token;
    }
    EXPECT_EQ(rooms_held_by(server.port()), 1) << "a game in progress stays, watched or not";

    // The game ends with nobody watching it: its room goes with the commit of the end.
    test::WsClient ann(server.port());
    ann.hello(ann_token);
    EXPECT_EQ(answered(ann, {{"type", "resign"}, {"game_id", game_id}}, "r")["type"], "ack");
    EXPECT_TRUE(test::eventually([&] { return rooms_held_by(server.port()) == 0; }))
        << "a finished room with no watcher, nothing in flight and nothing waiting";

    // A player's request loads the finished room again, which goes once it has done it; what it
    // did is in the store for the next load.
    test::WsClient bob(server.port());
    bob.hello(bob_token);
    EXPECT_EQ(answered(bob, {{"type", "rematch_offer"}, {"game_id", game_id}}, "o")["type"], "ack");
    EXPECT_TRUE(test::eventually([&] { return rooms_held_by(server.port()) == 0; }));
    EXPECT_EQ(answered(ann, {{"type", "rematch_accept"}, {"game_id", game_id}}, "a")["type"],
              "ack");
    EXPECT_TRUE(test::eventually([&] { return rooms_held_by(server.port()) == 1; }))
        << "the rematch, in progress, and not the finished game";
    const auto stored = server.store().events(game_id);
    ASSERT_TRUE(stored.ok()) << stored.error();
    ASSERT_EQ(stored->size(), 3u);
    EXPECT_NE(stored->back().json.find("rematch_started"), std::string::npos);

    // A player who watches the finished game keeps it; it goes when the player stops watching.
    EXPECT_EQ(answered(bob, {{"type", "watch"}, {"game_id", game_id}}, "w")["type"], "snapshot");
    EXPECT_EQ(rooms_held_by(server.port()), 2);
    EXPECT_EQ(answered(bob, {{"type", "unwatch"}, {"game_id", game_id}}, "u")["type"], "ack");
    EXPECT_TRUE(test::eventually([&] { return rooms_held_by(server.port()) == 1; }));
}

}  // namespace
