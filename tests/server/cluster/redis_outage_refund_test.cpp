// Issue 42, finding 17 ("0 of 5.3–5.6 s refunded for a Redis restart"): a node whose Redis
// stops loses its game's lease, and its room stops acting for the game; when Redis comes back
// empty, the node claims the game again knowing of no former owner (Leases::Claim::unowned is 0),
// yet the time from when its room stopped until the game could move again is refunded to the
// player to move, like downtime (server/game/heartbeat.h, NodeOutages).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "server/cluster/cluster_nodes.h"
#include "server/cluster/test_redis.h"

namespace {

using live_test::json;
using live_test::Player;
using namespace std::chrono_literals;

class RedisOutageRefund : public cluster_test::ClusterNodes {};

TEST_F(RedisOutageRefund, AGameTakenBackAfterRedisCameBackEmptyIsRefundedTheOutage) {
    test::PrivateRedis redis;
    ASSERT_TRUE(redis.start());
    redis_ = redis.url();
    auto a = node("a", 1000);
    ASSERT_NE(a->port(), 0) << read_log("a");
    Player walter;
    Player bella;
    connect(walter, a->port(), "Walter");
    connect(bella, a->port(), "Bella");
    auto game =
        live_test::start_game(walter, bella, "chessence", json{{"initial", 300}, {"increment", 0}});
    ASSERT_FALSE(game.id.empty());
    ASSERT_TRUE(game.play(0));
    ASSERT_TRUE(game.play(0));  // White's clock runs
    const auto asked = std::chrono::steady_clock::now();
    const auto before = watch(walter, game.id);
    ASSERT_EQ(before.value("type", ""), "snapshot") << before.dump();
    const std::int64_t left_before = before["clock"]["white"];

    ASSERT_TRUE(redis.stop());
    std::this_thread::sleep_for(4s);  // the lease (1 s) runs out: the room stops acting
    ASSERT_TRUE(redis.start());       // empty: nothing is known of the game's owner

    json after;
    for (int attempt = 0; attempt < 50; ++attempt) {
        after = watch(walter, game.id);
        if (after.value("type", "") == "snapshot") {
            break;
        }
        std::this_thread::sleep_for(200ms);
    }
    const auto back = std::chrono::steady_clock::now();
    ASSERT_EQ(after.value("type", ""), "snapshot") << after.dump() << read_log("a");
    ASSERT_EQ(after["clock"].value("running", ""), "white");
    const auto passed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(back - asked);
    const std::int64_t charged = left_before - after["clock"]["white"].get<std::int64_t>();
    // Until the room stopped: the lease's second and a renewal round, and the reads around.
    EXPECT_LT(charged, 2000) << "of " << passed_ms.count() << " ms White was charged " << charged
                             << " ms: the time the game could not move was not refunded";
    EXPECT_GT(charged, 500) << "the time until the lease ran out stays used";
    EXPECT_NE(read_log("a").find("after 0 ms without an owner"), std::string::npos)
        << "the claim knew of no former owner: " << read_log("a");
}

}  // namespace
