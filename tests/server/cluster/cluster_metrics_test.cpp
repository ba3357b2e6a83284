// Issue 42, cluster mode: GET /metrics of real nodes tells what the cluster does — the leases a
// node holds, the clients an owner serves for other nodes and those a node relays, renewal rounds
// that failed and leases lost while Redis was away, and the pub/sub subscriber's reconnects.
#include <gtest/gtest.h>

#include <string>

#include "server/cluster/cluster_nodes.h"
#include "server/cluster/test_redis.h"
#include "server/test_support.h"

namespace {

using live_test::Player;
using live_test::ServerProcess;
using namespace std::chrono_literals;

class ClusterMetrics : public cluster_test::ClusterNodes {
protected:
    // One series of `node`'s GET /metrics; -1 when absent.
    static double scraped(const ServerProcess& node, const std::string& series) {
        const auto [status, body] = live_test::http_get(node.port(), "/metrics");
        EXPECT_EQ(status, 200);
        return test::metric_value(body, series);
    }
    // Whether `node`'s series reaches `at_least` within `limit`.
    static bool reaches(const ServerProcess& node, const std::string& series, double at_least,
                        std::chrono::milliseconds limit = 5000ms) {
        return test::eventually([&] { return scraped(node, series) >= at_least; }, limit);
    }
};

TEST_F(ClusterMetrics, TheOwnerShowsItsLeaseAndRemoteClientsAndTheOriginItsRelayedOnes) {
    const auto a = node("a", 5000);
    const auto b = node("b", 5000);
    ASSERT_NE(a->port(), 0) << read_log("a");
    ASSERT_NE(b->port(), 0) << read_log("b");
    EXPECT_EQ(scraped(*a, "chessence_leases_held"), 0) << "shown, as 0, before any game";
    Player walter;
    Player bella;
    connect(walter, a->port(), "Walter");
    connect(bella, a->port(), "Bella");
    const auto game = live_test::start_game(walter, bella, "chessence");
    ASSERT_FALSE(game.id.empty());

    // Sam on B watches A's game through the relay.
    Player sam;
    connect(sam, b->port(), "Sam");
    ASSERT_EQ(watch(sam, game.id).value("type", ""), "snapshot");
    EXPECT_EQ(scraped(*a, "chessence_leases_held"), 1);
    EXPECT_EQ(scraped(*b, "chessence_leases_held"), 0);
    EXPECT_EQ(scraped(*a, "chessence_relay_remote_clients"), 1);
    EXPECT_EQ(scraped(*a, "chessence_relay_relayed_clients"), 0);
    EXPECT_EQ(scraped(*b, "chessence_relay_relayed_clients"), 1);
    EXPECT_EQ(scraped(*b, "chessence_relay_remote_clients"), 0);
    EXPECT_EQ(scraped(*a, "chessence_lease_renewal_failures_total"), 0);
    EXPECT_EQ(scraped(*a, "chessence_leases_lost_total"), 0);
    EXPECT_EQ(scraped(*a, "chessence_pubsub_reconnects_total"), 0);
    EXPECT_GE(scraped(*b, "chessence_relay_records_queued"), 0);
    EXPECT_EQ(scraped(*b, "chessence_relay_records_dropped_total{reason=\"outbox_full\"}"), 0);

    // Sam leaves: B relays for nobody, and A forgets its remote client.
    sam.client.reset();
    EXPECT_TRUE(test::eventually([&] {
        return scraped(*b, "chessence_relay_relayed_clients") == 0 &&
               scraped(*a, "chessence_relay_remote_clients") == 0;
    }));
}

// A node whose Redis (its own here) stops and comes back: rounds of renewal fail, its game's lease
// runs out, and its subscriber reconnects once Redis is back.
TEST_F(ClusterMetrics, RedisStoppedAndStartedCountsFailedRenewalsALostLeaseAndAReconnect) {
    test::PrivateRedis redis;
    ASSERT_TRUE(redis.start());
    redis_ = redis.url();
    const auto a = node("a", 1000);
    ASSERT_NE(a->port(), 0) << read_log("a");
    Player walter;
    Player bella;
    connect(walter, a->port(), "Walter");
    connect(bella, a->port(), "Bella");
    const auto game = live_test::start_game(walter, bella, "chessence");
    ASSERT_FALSE(game.id.empty());
    ASSERT_EQ(scraped(*a, "chessence_leases_held"), 1);
    EXPECT_EQ(scraped(*a, "chessence_lease_renewal_failures_total"), 0);

    ASSERT_TRUE(redis.stop());
    EXPECT_TRUE(reaches(*a, "chessence_lease_renewal_failures_total", 1)) << read_log("a");
    EXPECT_TRUE(reaches(*a, "chessence_leases_lost_total", 1)) << "the lease ran out";
    EXPECT_EQ(scraped(*a, "chessence_leases_held"), 0);
    EXPECT_EQ(scraped(*a, "chessence_pubsub_reconnects_total"), 0) << "not back yet";

    ASSERT_TRUE(redis.start());
    EXPECT_TRUE(reaches(*a, "chessence_pubsub_reconnects_total", 1, 8000ms)) << read_log("a");
}

}  // namespace
