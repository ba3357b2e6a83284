// GET /metrics and GET /readyz on a live server: moves, their latency, errors by code, refusals
// and connections are counted as they happen; the token guards /metrics when set; /readyz says
// 503 when the store cannot be read or written, or Redis cannot be reached in cluster mode, and
// 200 again once it can, by itself; it answers at once even while the store hangs.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "server/cluster/test_redis.h"
#include "server/game_table.h"
#include "server/server.h"
#include "server/store/memory_store.h"
#include "server/test_stores.h"

namespace {

using namespace std::chrono_literals;
using test::json;

// /readyz's status ("ready", "store_unwritable", …; "" when the answer is not JSON).
std::string readiness_of(std::uint16_t port) {
    const auto answer = test::http_get(port, "/readyz");
    const auto body = test::parse(answer.body);
    const bool agrees = (answer.status == 200) == (body.value("status", "") == "ready");
    return agrees && body.is_object() ? body.value("status", "") : "";
}

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
    EXPECT_TRUE(test::eventually([&] { return readiness_of(server.port()) != "ready"; }, 2500ms));
    ready = test::http_get(server.port(), "/readyz");
    EXPECT_EQ(ready.status, 503);
    EXPECT_EQ(json::parse(ready.body)["status"], "store_unreachable");
    EXPECT_EQ(json::parse(ready.body)["error"], "test store: cannot read (check)");
    EXPECT_EQ(test::http_get(server.port(), "/healthz").status, 200) << "the process still serves";
    failing->fail_reads = false;
    EXPECT_TRUE(test::eventually([&] { return readiness_of(server.port()) == "ready"; }, 2500ms));
}

TEST(HttpOperations, ReadyzSaysWhenTheStoreCannotBeWrittenAndComesBackByItself) {
    auto owned = std::make_unique<test::ControlledStore>();
    auto* store = owned.get();
    test::TestServer server(test::fast_limits(), std::move(owned));
    test::Table table(server.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    EXPECT_EQ(readiness_of(server.port()), "ready");
    EXPECT_EQ(test::metric_value(scrape(server.port()), "chessence_ready"), 1);

    store->fail_all = true;  // a full or read-only disk: every batch is refused
    auto& white = table.seat_named("white");
    const auto move = table.start["legal"][0];
    white.send({{"type", "move"}, {"game_id", table.game_id}, {"move", move}, {"id", "m1"}});
    EXPECT_EQ(white.wait_error("m1")["code"], "internal_error");
    EXPECT_TRUE(
        test::eventually([&] { return readiness_of(server.port()) == "store_unwritable"; }, 2000ms))
        << "a load balancer stops sending players to a node that cannot store their moves";
    const auto unready = test::http_get(server.port(), "/readyz");
    EXPECT_EQ(unready.status, 503);
    EXPECT_NE(json::parse(unready.body).value("error", "").find("disk full"), std::string::npos)
        << unready.body;
    EXPECT_EQ(test::metric_value(scrape(server.port()), "chessence_ready"), 0);
    EXPECT_EQ(test::http_get(server.port(), "/healthz").status, 200) << "the process still serves";

    store->fail_all = false;
    EXPECT_TRUE(test::eventually([&] { return readiness_of(server.port()) == "ready"; }, 2500ms))
        << "ready again without a player's move: the node tries a harmless write itself";
    EXPECT_EQ(test::metric_value(scrape(server.port()), "chessence_ready"), 1);
    white.send({{"type", "move"}, {"game_id", table.game_id}, {"move", move}, {"id", "m2"}});
    EXPECT_EQ(table.event(1)["kind"], "move");
}

TEST(HttpOperations, ReadyzAnswersAtOnceWhileTheStoreHangs) {
    auto store = std::make_unique<test::ReadFailingStore>();
    auto* slow = store.get();
    test::TestServer server(test::fast_limits(), std::move(store));
    slow->slow_check_ms = 2000;           // every read check now takes 2 s
    std::this_thread::sleep_for(1500ms);  // one is under way
    for (int i = 0; i < 3; ++i) {
        const auto started = std::chrono::steady_clock::now();
        EXPECT_EQ(readiness_of(server.port()), "ready");
        EXPECT_LT(std::chrono::steady_clock::now() - started, 300ms)
            << "/readyz waits for no store call on the I/O thread";
    }
    slow->slow_check_ms = 0;
}

TEST(HttpOperations, ReadyzSaysWhenRedisCannotBeReachedInClusterMode) {
    test::PrivateRedis redis;
    ASSERT_TRUE(redis.start());
    auto store = server::make_memory_store();
    server::ServerOptions options;
    options.bind = "127.0.0.1";
    options.port = 0;
    options.limits = test::fast_limits();
    options.redis = redis.url();
    options.node_id = "readyz-node";
    auto node = server::Server::start(options, *store);
    ASSERT_TRUE(node) << node.error();
    const auto port = (*node)->port();
    EXPECT_EQ(readiness_of(port), "ready");

    ASSERT_TRUE(redis.stop());
    EXPECT_TRUE(test::eventually([&] { return readiness_of(port) == "redis_unreachable"; }, 2500ms))
        << "without Redis a node can take no game's lease: no seek can be accepted on it";
    const auto unready = test::http_get(port, "/readyz");
    EXPECT_EQ(unready.status, 503);
    EXPECT_FALSE(json::parse(unready.body).value("error", "").empty()) << unready.body;

    ASSERT_TRUE(redis.start());
    EXPECT_TRUE(test::eventually([&] { return readiness_of(port) == "ready"; }, 3000ms));
    (*node)->shutdown();
    (*node)->wait();
}

}  // namespace
