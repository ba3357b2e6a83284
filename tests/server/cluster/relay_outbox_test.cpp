// Issue 42, cluster mode: what waits to be published to one node is bounded. While Redis does not
// take a PUBLISH (CLIENT PAUSE … WRITE: a stalled Redis), requests relayed to one owner pile up in
// the relay's outbox; past relay_outbox_per_node they are answered at once as if the owner were
// unreachable (server_restarting, with each request's id and game), instead of waiting without
// bound.
#include "server/game/relay.h"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "server/cluster/redis_client.h"
#include "server/cluster/test_redis.h"
#include "server/game/server_state.h"
#include "server/limits.h"
#include "server/store/memory_store.h"

namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// A client of this node that records the frames it is sent (from any thread).
class FrameRecorder final : public server::Client {
public:
    std::uint64_t client_id() const override { return 7; }
    void send(server::Frame frame) override {
        std::lock_guard lock(mutex_);
        frames_.push_back(json::parse(*frame));
    }
    void watching(const std::shared_ptr<server::Room>&, bool) override {}
    void close_after_queued(std::uint16_t) override {}
    std::vector<json> frames() {
        std::lock_guard lock(mutex_);
        return frames_;
    }

private:
    std::mutex mutex_;
    std::vector<json> frames_;
};

TEST(RelayOutbox, RequestsBeyondTheBoundAreAnsweredWhileRedisStalls) {
    test::PrivateRedis redis;
    ASSERT_TRUE(redis.start());
    boost::asio::io_context io;
    auto store = server::make_memory_store();
    server::ServerState state(io, *store, server::Limits{}, "");
    auto relay = server::Relay::open(state, redis.url(), "near", test::unique_prefix());
    ASSERT_TRUE(relay) << relay.error();
    const auto url = server::cluster::parse_redis_url(redis.url());
    ASSERT_TRUE(url) << url.error();
    auto control = server::cluster::RedisConnection::open(*url, 2000ms);
    ASSERT_TRUE(control) << control.error();
    // The relay announces itself on the lobby channel when it opens: that record is out before
    // Redis stalls, so that what waits below is only what this test sends.
    const auto quiet = std::chrono::steady_clock::now() + 5s;
    while ((*relay)->stats().queued != 0 && std::chrono::steady_clock::now() < quiet) {
        std::this_thread::sleep_for(5ms);
    }
    ASSERT_EQ((*relay)->stats().queued, 0u) << "the relay's own sync record is published";
    // Redis takes no PUBLISH for 1.5 s (less than the relay's 2 s command timeout).
    const auto paused = (*control)->command({"CLIENT", "PAUSE", "1500", "WRITE"});
    ASSERT_TRUE(paused) << paused.error();

    auto client = std::make_shared<FrameRecorder>();
    server::Actor actor;
    actor.client = client;
    actor.client_id = client->client_id();
    actor.player_id = "p_ann";
    actor.name = "Ann";
    // The sending thread takes what is queued once and then waits for Redis: twice the bound and
    // more certainly fills the outbox past it.
    const auto count = 2 * server::relay_outbox_per_node + 2;
    for (std::size_t i = 0; i < count; ++i) {
        protocol::Request request;
        request.type = protocol::RequestType::draw_offer;
        request.id = i;
        request.game_id = "g_far";
        const auto text = json{{"type", "draw_offer"}, {"game_id", "g_far"}, {"id", i}}.dump();
        (*relay)->forward("far", client, actor, request, text);
    }
    const auto answered = client->frames();  // at once: Redis is still paused
    ASSERT_GT(answered.size(), server::relay_outbox_per_node)
        << "what did not fit was answered without waiting for Redis";
    std::vector<bool> seen(count, false);
    for (const auto& frame : answered) {
        EXPECT_EQ(frame["type"], "error");
        EXPECT_EQ(frame["code"], "server_restarting");
        EXPECT_EQ(frame["game_id"], "g_far");
        ASSERT_TRUE(frame["id"].is_number_unsigned()) << frame;
        const auto id = frame["id"].get<std::size_t>();
        ASSERT_LT(id, count);
        EXPECT_FALSE(seen[id]) << "each request is answered once: " << id;
        seen[id] = true;
    }
    // GET /metrics's figures while Redis stalls: each request waits in the outbox (or in the
    // batch being published) or was dropped for the full outbox, and was then answered.
    const auto stalled = (*relay)->stats();
    EXPECT_EQ(stalled.dropped_outbox_full, answered.size());
    EXPECT_EQ(stalled.queued + stalled.dropped_outbox_full, count);
    EXPECT_EQ(stalled.relayed_clients, 1u);
    EXPECT_EQ(stalled.remote_clients, 0u);
    (*control)->command({"CLIENT", "UNPAUSE"});

    // Nobody listens on the far node's channel: what waited is dropped too, and answered.
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (client->frames().size() < count && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(10ms);
    }
    EXPECT_EQ(client->frames().size(), count);
    const auto after = (*relay)->stats();
    EXPECT_EQ(after.queued, 0u);
    EXPECT_EQ(
        after.dropped_outbox_full + after.dropped_nobody_listening + after.dropped_publish_failed,
        count);
    EXPECT_GT(after.dropped_nobody_listening + after.dropped_publish_failed, 0u);
}

}  // namespace
