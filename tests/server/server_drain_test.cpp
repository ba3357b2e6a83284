// The drain (server.h): on shutdown every client hears server_restart, a request after it is
// refused with server_restarting and changes nothing, a move accepted before it is still stored,
// broadcast and acknowledged, and only then do the connections close with 1012; /readyz says 503
// meanwhile.
#include <gtest/gtest.h>

#include <thread>

#include "server/game_table.h"
#include "server/test_stores.h"

namespace {

using test::json;

// The index of the first message of `client`'s history matching `pred`, or -1.
long first_index(const test::WsClient& client, const std::function<bool(const json&)>& pred) {
    const auto& history = client.history();
    for (std::size_t i = 0; i < history.size(); ++i) {
        if (pred(history[i])) {
            return static_cast<long>(i);
        }
    }
    return -1;
}

TEST(ServerDrain, AMoveInFlightIsStoredSentAndAcknowledgedBeforeTheConnectionsClose) {
    auto owned = std::make_unique<test::ControlledStore>();
    auto* store = owned.get();
    test::TestServer server(test::fast_limits(), std::move(owned));
    test::Table table(server.port(), "chessence");
    ASSERT_FALSE(table.game_id.empty());
    auto& white = table.seat_named("white");
    auto& black = table.seat_named("black");
    const auto move = table.start["legal"][0].get<std::string>();

    // The move's commit takes 1.5 s: the drain surely starts meanwhile, even on a slow machine.
    store->slow_ms = 1500;
    store->slow_appends = true;
    white.send({{"type", "move"}, {"game_id", table.game_id}, {"move", move}, {"id", "m1"}});
    ASSERT_TRUE(test::eventually([&] { return store->commits_in_flight() > 0; }));
    std::thread stopping([&] { server.stop(); });

    const auto restart = black.wait_type("server_restart");
    EXPECT_EQ(restart["reconnect_ms"], 3000);
    black.send({{"type", "resign"}, {"game_id", table.game_id}, {"id", "late"}});
    const auto refused = black.wait_error("late");
    EXPECT_EQ(refused["code"], "server_restarting");
    EXPECT_EQ(refused["game_id"], table.game_id);

    const auto ack = white.wait_for([](const json& m) { return m.value("id", json()) == "m1"; });
    EXPECT_EQ(ack["type"], "ack");
    EXPECT_TRUE(white.wait_closed());
    EXPECT_TRUE(black.wait_closed());
    stopping.join();
    EXPECT_EQ(white.close_code(), 1012);
    EXPECT_EQ(black.close_code(), 1012);

    const auto is_move = [&](const json& m) {
        return m["type"] == "event" && m["event"].value("kind", "") == "move";
    };
    EXPECT_GE(first_index(black, is_move), 0) << "the opponent got the move before the close";
    EXPECT_LT(first_index(white, [](const json& m) { return m["type"] == "server_restart"; }),
              first_index(white, is_move))
        << "server_restart went out at once, the move once stored";
    const auto events = store->events(table.game_id, 0);
    ASSERT_TRUE(events) << events.error();
    std::size_t moves = 0;
    for (const auto& stored : *events) {
        const auto kind = json::parse(stored.json).value("kind", "");
        moves += kind == "move" ? 1 : 0;
        EXPECT_NE(kind, "game_over") << "the refused resignation changed nothing";
    }
    EXPECT_EQ(moves, 1u);
}

TEST(ServerDrain, WhileDrainingReadyzSays503AndNewWebSocketsAreTurnedAway) {
    auto owned = std::make_unique<test::ControlledStore>();
    auto* store = owned.get();
    test::TestServer server(test::fast_limits(), std::move(owned));
    test::Table table(server.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    store->slow_ms = 1500;
    store->slow_appends = true;  // the drain lasts while this move is stored
    table.seat_named("white").send(
        {{"type", "move"}, {"game_id", table.game_id}, {"move", table.start["legal"][0]}});
    ASSERT_TRUE(test::eventually([&] { return store->commits_in_flight() > 0; }));
    EXPECT_EQ(test::http_get(server.port(), "/readyz").status, 200);
    const auto port = server.port();
    std::thread stopping([&] { server.stop(); });
    table.ann->wait_type("server_restart");

    const auto ready = test::http_get(port, "/readyz");
    EXPECT_EQ(ready.status, 503) << "a load balancer stops sending players here";
    EXPECT_EQ(json::parse(ready.body)["status"], "draining");
    const auto upgrade = test::raw_http(
        port,
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    EXPECT_EQ(upgrade.status, 503);
    EXPECT_NE(upgrade.head.find("Retry-After"), std::string::npos);
    const auto metrics = test::http_get(port, "/metrics").body;
    EXPECT_NE(metrics.find("\nchessence_draining 1\n"), std::string::npos);
    EXPECT_NE(metrics.find("chessence_refusals_total{reason=\"draining\"} 1\n"), std::string::npos);
    stopping.join();
}

}  // namespace
