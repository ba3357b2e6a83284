// GET /metrics and GET /readyz on a live server: moves, their latency, errors by code, refusals
// and connections are counted as they happen; the token guards /metrics when set; /readyz says
// 503 when the store cannot be read, and 200 again once it can.
#include <gtest/gtest.h>

#include <string>

#include "server/game_table.h"
#include "server/test_stores.h"

namespace {

using test::json;

std::string scrape(std::uint16_t port) {
    const auto answer = test::http_get(port, "/metrics");
    EXPECT_EQ(answer.status, 200);
    EXPECT_EQ(answer.content_type, "text/plain; version=0.0.4; charset=utf-8");
    return answer.body;
}

TEST(HttpOperations, MetricsCountMovesErrorsAndConnectionsAsTheyHappen) {
    test::TestServer server(test::fast_limits());
    const auto before = scrape(server.port());
    test::Table table(server.port(), "chessence");
    ASSERT_FALSE(table.game_id.empty());
    const auto played = test::play_chess(table, test::capture_first, 4);
    ASSERT_EQ(played.moves.size(), 4u);
    table.ann->send(
        {{"type", "move"}, {"game_id", table.game_id}, {"move", "a1a1"}, {"id", "bad"}});
    EXPECT_EQ(table.ann->wait_error("bad")["code"], "illegal_move");
    const auto after = scrape(server.port());

    const auto grew = [&](const std::string& series) {
        return test::metric_value(after, series) - test::metric_value(before, series);
    };
    EXPECT_EQ(grew("chessence_moves_total"), 4);
    EXPECT_EQ(grew("chessence_move_seconds_count"), 4) << "each move's frame read -> broadcast";
    EXPECT_GT(grew("chessence_move_seconds_sum"), 0);
    EXPECT_EQ(grew("chessence_errors_total{code=\"illegal_move\"}"), 1);
    EXPECT_EQ(grew("chessence_connections_accepted_total"), 3) << "Ann, Bob and Sam";
    EXPECT_EQ(test::metric_value(after, "chessence_connections"), 3);
    EXPECT_EQ(test::metric_value(after, "chessence_games_active"), 1);
    EXPECT_GE(test::metric_value(after, "chessence_rooms_in_memory"), 1);
    EXPECT_GE(grew("chessence_store_commit_seconds_count"), 5) << "the game and four moves";
    EXPECT_GE(grew("chessence_store_group_batches_count"), 5);
    EXPECT_EQ(test::metric_value(after, "chessence_draining"), 0);
    EXPECT_GT(test::metric_value(after, "process_resident_memory_bytes"), 0);

    table.bob->send({{"type", "resign"}, {"game_id", table.game_id}});
    EXPECT_EQ(table.event(5)["kind"], "game_over");
    EXPECT_TRUE(test::eventually(
        [&] { return test::metric_value(scrape(server.port()), "chessence_games_active") == 0; }));
}

TEST(HttpOperations, RefusalsAreCountedByReason) {
    auto limits = test::fast_limits();
    limits.connections_per_ip = 1;
    test::TestServer server(limits);
    const auto before = scrape(server.port());
    test::WsClient first(server.port());
    first.hello();
    const auto refused = test::raw_http(
        server.port(),
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    EXPECT_EQ(refused.status, 429);
    const auto foreign = test::raw_http(
        server.port(),
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://evil.example\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    EXPECT_EQ(foreign.status, 403);
    EXPECT_EQ(test::http_get(server.port(), "/" + std::string(5000, 'a')).status, 414);
    const auto after = scrape(server.port());
    const auto grew = [&](const std::string& reason) {
        const auto series = "chessence_refusals_total{reason=\"" + reason + "\"}";
        return test::metric_value(after, series) - test::metric_value(before, series);
    };
    EXPECT_EQ(grew("address_connections"), 1);
    EXPECT_EQ(grew("origin"), 1);
    EXPECT_EQ(grew("oversized_request"), 1);
    EXPECT_EQ(grew("server_connections"), 0);
}

TEST(HttpOperations, TheMetricsTokenGuardsMetricsOnly) {
    auto limits = test::fast_limits();
    limits.metrics_token = "0123456789abcdef-scrape";
    test::TestServer server(limits);
    EXPECT_EQ(test::http_get(server.port(), "/metrics").status, 401);
    EXPECT_EQ(test::http_get(server.port(), "/metrics", "GET", "Bearer wrong-token-0123456").status,
              401);
    const auto allowed =
        test::http_get(server.port(), "/metrics", "GET", "Bearer 0123456789abcdef-scrape");
    EXPECT_EQ(allowed.status, 200);
    EXPECT_NE(allowed.body.find("chessence_moves_total"), std::string::npos);
    EXPECT_EQ(test::http_get(server.port(), "/readyz").status, 200) << "no token needed";
}

TEST(HttpOperations, ReadyzSaysWhenTheStoreCannotBeRead) {
    auto store = std::make_unique<test::ReadFailingStore>();
    auto* failing = store.get();
    test::TestServer server(test::fast_limits(), std::move(store));
    auto ready = test::http_get(server.port(), "/readyz");
    EXPECT_EQ(ready.status, 200);
    EXPECT_EQ(json::parse(ready.body)["status"], "ready");
    failing->fail_reads = true;
    ready = test::http_get(server.port(), "/readyz");
    EXPECT_EQ(ready.status, 503);
    EXPECT_EQ(json::parse(ready.body)["status"], "store_unreachable");
    EXPECT_EQ(test::http_get(server.port(), "/healthz").status, 200) << "the process still serves";
    failing->fail_reads = false;
    EXPECT_EQ(test::http_get(server.port(), "/readyz").status, 200);
}

}  // namespace
