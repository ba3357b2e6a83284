// Issue 42: what a connection queues is bounded, and every refusal names its request. Frames
// posted to a session whose strand is behind count against its outgoing queue (a client that falls
// behind is disconnected, not buffered forever); a frame refused for the message rate, or for
// arriving while too many wait for the welcome, is answered with its own `id`.
#include "server/net/websocket_session.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/beast/core/tcp_stream.hpp>

#include "server/game/server_state.h"
#include "server/limits.h"
#include "server/metrics/metrics.h"
#include "server/test_stores.h"
#include "server/test_support.h"

namespace {

using test::json;
using test::WsClient;

// A session whose strand runs nothing until io runs (every frame sent meanwhile stays posted),
// with a queue of 8 frames.
class SessionSendQueue : public ::testing::Test {
protected:
    server::Limits with_small_queue() {
        server::Limits limits;
        limits.max_queue = 8;
        return limits;
    }

    boost::asio::io_context io;
    std::unique_ptr<server::Store> store = server::make_memory_store();
    server::Limits limits = with_small_queue();
    server::ServerState state{io, *store, limits, ""};
    std::shared_ptr<server::WebSocketSession> session = std::make_shared<server::WebSocketSession>(
        state, boost::beast::tcp_stream(io), "127.0.0.1", nullptr);
    const server::Frame frame = server::make_frame(R"({"type":"pong"})");
    const std::uint64_t drops = server::metrics().queue_drops.value();
};

TEST_F(SessionSendQueue, FramesPostedToAStrandThatIsBehindAreBounded) {
    for (int i = 0; i < 1000; ++i) {
        session->send(frame);
    }
    EXPECT_LE(frame.use_count(), static_cast<long>(1 + limits.max_queue))
        << "at most max_queue frames wait for the strand";
    io.poll();
    EXPECT_EQ(server::metrics().queue_drops.value(), drops + 1)
        << "the session fell behind once: disconnected and counted";
    EXPECT_EQ(frame.use_count(), 1) << "a session that fell behind keeps no frame";
    session->send(frame);
    EXPECT_EQ(frame.use_count(), 1) << "nothing more is posted to it";
}

TEST_F(SessionSendQueue, FramesWithinTheCapAreNotDropped) {
    for (std::size_t i = 0; i < limits.max_queue; ++i) {
        session->send(frame);
    }
    io.poll();
    EXPECT_EQ(server::metrics().queue_drops.value(), drops);
    EXPECT_EQ(frame.use_count(), static_cast<long>(1 + limits.max_queue)) << "all queued";
}

// The replies to `count` requests (pong or error), in order.
std::vector<json> replies_of(WsClient& client, int count) {
    std::vector<json> replies;
    for (int i = 0; i < count; ++i) {
        auto reply = client.wait_for([](const json& m) {
            return m.value("type", "") == "pong" || m.value("type", "") == "error";
        });
        if (reply.is_null()) {
            break;
        }
        replies.push_back(std::move(reply));
    }
    return replies;
}

TEST(SessionQueue, PipelinedPingsRefusedForTheRateCarryTheirIds) {
    test::TestServer server;  // the default rate: 20 a second, bursts of 40
    WsClient client(server.port());
    client.hello();
    const int count = 100;
    for (int i = 0; i < count; ++i) {
        client.send({{"type", "ping"}, {"id", i}});
    }
    const auto replies = replies_of(client, count);
    ASSERT_EQ(replies.size(), static_cast<std::size_t>(count));
    int limited = 0;
    for (int i = 0; i < count; ++i) {
        const auto& reply = replies[static_cast<std::size_t>(i)];
        EXPECT_EQ(reply.value("id", json()), i) << reply;
        limited += reply.value("code", "") == "rate_limited";
    }
    EXPECT_GT(limited, 0) << "the burst is 40: some were refused";
}

TEST(SessionQueue, FramesRefusedBeforeTheWelcomeCarryTheirIds) {
    auto store = std::make_unique<test::ControlledStore>();
    store->slow_players = true;  // the hello waits for its player to be stored
    store->slow_ms = 500;
    test::TestServer server(test::fast_limits(), std::move(store));
    WsClient client(server.port());
    client.send({{"type", "hello"}, {"protocol", 1}, {"id", "hello"}});
    const int count = static_cast<int>(server::max_held_frames) + 4;
    for (int i = 0; i < count; ++i) {
        client.send({{"type", "ping"}, {"id", i}});
    }
    for (int i = static_cast<int>(server::max_held_frames); i < count; ++i) {
        EXPECT_EQ(client.wait_error(i)["code"], "rate_limited");
    }
    EXPECT_EQ(client.wait_type("welcome")["id"], "hello");
    for (int i = 0; i < static_cast<int>(server::max_held_frames); ++i) {
        const auto pong = client.wait_for([&](const json& m) {
            return m.value("type", "") == "pong" && m.value("id", json()) == i;
        });
        EXPECT_FALSE(pong.is_null());
    }
}

}  // namespace
