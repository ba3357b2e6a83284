#include "server/cluster/leases.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "server/cluster/redis_client.h"
#include "server/cluster/test_redis.h"

namespace {

using server::cluster::Leases;
using server::cluster::RedisConnection;
using namespace std::chrono_literals;

// What a node's LostHandler was told, in order.
class LostLog {
public:
    Leases::LostHandler handler() {
        return [this](const std::string& game_id, std::int64_t fence) {
            std::lock_guard lock(mutex_);
            lost_.emplace_back(game_id, fence);
            changed_.notify_all();
        };
    }
    // Waits up to `limit` for at least `count` reports.
    bool wait_for(std::size_t count, std::chrono::milliseconds limit) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, limit, [&] { return lost_.size() >= count; });
    }
    std::vector<std::pair<std::string, std::int64_t>> reports() {
        std::lock_guard lock(mutex_);
        return lost_;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::pair<std::string, std::int64_t>> lost_;
};

// Nodes sharing the tests' Redis server under a key prefix of this test's own.
class LeasesTest : public testing::Test {
protected:
    void SetUp() override {
        const auto url = test::test_redis_url();
        ASSERT_TRUE(url) << url.error();
        url_ = *url;
    }

    std::unique_ptr<Leases> node(const std::string& id, std::chrono::milliseconds ttl = 5000ms,
                                 Leases::LostHandler on_lost = {}) {
        auto opened = Leases::open({url_, id, ttl, prefix_, {}}, std::move(on_lost));
        EXPECT_TRUE(opened) << opened.error();
        return opened ? std::move(*opened) : nullptr;
    }

    std::unique_ptr<RedisConnection> raw_redis() {
        auto opened = RedisConnection::open(*server::cluster::parse_redis_url(url_), 1000ms);
        EXPECT_TRUE(opened) << opened.error();
        return opened ? std::move(*opened) : nullptr;
    }

    std::string url_;
    const std::string prefix_ = test::unique_prefix();
};

TEST_F(LeasesTest, ATakeoverKnowsHowLongTheGameHadNoOwner) {
    // Never held, or held live by another node: nothing to refund.
    auto a = node("node-a", 300ms);
    const auto b = node("node-b", 300ms);
    ASSERT_TRUE(a && b);
    const auto first = a->acquire("g-dead", 0);
    ASSERT_TRUE(first) << first.error();
    EXPECT_EQ(first->unowned, 0ms);
    const auto live = b->acquire("g-dead", 0);
    ASSERT_TRUE(live) << live.error();
    EXPECT_FALSE(live->mine);
    EXPECT_EQ(live->unowned, 0ms);

    // Given back: since then.
    ASSERT_TRUE(b->acquire("g-given", 0));
    b->release("g-given", b->acquire("g-given", 0)->fence);
    std::this_thread::sleep_for(200ms);
    const auto given = a->acquire("g-given", 0);
    ASSERT_TRUE(given && given->mine);
    EXPECT_GE(given->unowned, 190ms);
    EXPECT_LT(given->unowned, 2000ms);

    // Its node died (no release; its lease expires): since that node's last renewal round.
    a.reset();
    std::this_thread::sleep_for(600ms);  // the 300 ms lease has expired
    const auto taken = b->acquire("g-dead", 0);
    ASSERT_TRUE(taken && taken->mine) << (taken ? taken->owner : taken.error());
    EXPECT_GE(taken->unowned, 590ms) << "at least since the node went";
    EXPECT_LT(taken->unowned, 600ms + 100ms + 300ms) << "at most one renewal period more";
}

TEST_F(LeasesTest, FreeLeaseIsMine) {
    const auto a = node("node-a");
    ASSERT_TRUE(a);
    const auto claim = a->acquire("g1", 0);
    ASSERT_TRUE(claim) << claim.error();
    EXPECT_TRUE(claim->mine);
    EXPECT_GE(claim->fence, 1);
    EXPECT_EQ(claim->owner, "node-a");
    EXPECT_TRUE(a->holds("g1", claim->fence));
    EXPECT_FALSE(a->holds("g1", claim->fence + 1));
    EXPECT_FALSE(a->holds("g2", claim->fence));
    EXPECT_EQ(a->held_count(), 1u);
    EXPECT_EQ(a->node_id(), "node-a");

    const auto redis = raw_redis();
    ASSERT_TRUE(redis);
    const auto value = redis->command({"GET", prefix_ + "lease:g1"});
    ASSERT_TRUE(value) << value.error();
    EXPECT_EQ(value->text, "node-a|" + std::to_string(claim->fence));
    const auto ttl = redis->command({"PTTL", prefix_ + "lease:g1"});
    ASSERT_TRUE(ttl) << ttl.error();
    EXPECT_GT(ttl->integer, 0);
    EXPECT_LE(ttl->integer, 5000);
    EXPECT_EQ(redis->command({"PTTL", prefix_ + "fence:g1"})->integer, -1);
}

TEST_F(LeasesTest, AnotherNodesLeaseIsNotMine) {
    const auto a = node("node-a");
    const auto b = node("node-b");
    ASSERT_TRUE(a && b);
    const auto first = a->acquire("g1", 0);
    ASSERT_TRUE(first) << first.error();
    const auto second = b->acquire("g1", 0);
    ASSERT_TRUE(second) << second.error();
    EXPECT_FALSE(second->mine);
    EXPECT_EQ(second->owner, "node-a");
    EXPECT_EQ(second->fence, first->fence);
    EXPECT_FALSE(b->holds("g1", first->fence));
    EXPECT_EQ(b->held_count(), 0u);
}

// holders() (the relay's sweep, issue 42): each game's holding node in the order asked, "" for a
// game nobody holds (never leased, given back), a value that is no node's lease as it is; nothing
// asked, nothing answered; and once a lease expires its game is nobody's.
TEST_F(LeasesTest, HoldersNameEachGamesNodeInTheOrderAsked) {
    auto a = node("node-a", 400ms);
    const auto b = node("node-b");
    ASSERT_TRUE(a && b);
    ASSERT_TRUE(a->acquire("g-a", 0));
    ASSERT_TRUE(b->acquire("g-b", 0));
    const auto given = b->acquire("g-given", 0);
    ASSERT_TRUE(given && given->mine);
    b->release("g-given", given->fence);
    const auto redis = raw_redis();
    ASSERT_TRUE(redis);
    ASSERT_TRUE(redis->command({"SET", prefix_ + "lease:g-odd", "no-bar-here"}));

    const auto owners = b->holders({"g-b", "g-none", "g-a", "g-given", "g-odd", "g-a"});
    ASSERT_TRUE(owners) << owners.error();
    EXPECT_EQ(*owners,
              (std::vector<std::string>{"node-b", "", "node-a", "", "no-bar-here", "node-a"}));
    const auto none = b->holders({});
    ASSERT_TRUE(none) << none.error();
    EXPECT_TRUE(none->empty());

    a.reset();  // no release: its 400 ms lease runs out
    std::this_thread::sleep_for(700ms);
    const auto after = b->holders({"g-a", "g-b"});
    ASSERT_TRUE(after) << after.error();
    EXPECT_EQ(*after, (std::vector<std::string>{"", "node-b"}));
}

// Redis gone: holders() is an error value saying so, never "nobody holds it".
TEST(LeasesHolders, RedisGoneIsAnErrorNotNobody) {
    test::PrivateRedis server;
    ASSERT_TRUE(server.start());
    auto opened = Leases::open({server.url(), "node-a", 5000ms, test::unique_prefix(), {}}, {});
    ASSERT_TRUE(opened) << opened.error();
    auto& leases = **opened;
    ASSERT_TRUE(leases.acquire("g1", 0));
    ASSERT_TRUE(server.stop());
    const auto owners = leases.holders({"g1"});
    ASSERT_FALSE(owners);
    EXPECT_NE(owners.error().find("the games' leases"), std::string::npos) << owners.error();
}

TEST_F(LeasesTest, SameNodeAgainGetsTheSameFence) {
    const auto a = node("node-a");
    ASSERT_TRUE(a);
    const auto first = a->acquire("g1", 0);
    const auto again = a->acquire("g1", 0);
    ASSERT_TRUE(first && again);
    EXPECT_TRUE(again->mine);
    EXPECT_EQ(again->fence, first->fence);
    EXPECT_EQ(a->held_count(), 1u);
}

TEST_F(LeasesTest, FenceIsAboveTheFloor) {
    const auto a = node("node-a");
    ASSERT_TRUE(a);
    const auto claim = a->acquire("g1", 41);
    ASSERT_TRUE(claim) << claim.error();
    EXPECT_EQ(claim->fence, 42);
    a->release("g1", 42);
    // Below what Redis handed out already, the floor changes nothing.
    const auto next = a->acquire("g1", 5);
    ASSERT_TRUE(next) << next.error();
    EXPECT_EQ(next->fence, 43);
}

TEST_F(LeasesTest, ReleasedLeaseGoesToTheNextNodeWithAGreaterFence) {
    const auto a = node("node-a");
    const auto b = node("node-b");
    ASSERT_TRUE(a && b);
    const auto first = a->acquire("g1", 0);
    ASSERT_TRUE(first) << first.error();
    // A stale fence releases nothing.
    a->release("g1", first->fence + 7);
    EXPECT_TRUE(a->holds("g1", first->fence));
    EXPECT_FALSE(b->acquire("g1", 0)->mine);

    a->release("g1", first->fence);
    EXPECT_FALSE(a->holds("g1", first->fence));
    EXPECT_EQ(a->held_count(), 0u);
    const auto second = b->acquire("g1", 0);
    ASSERT_TRUE(second) << second.error();
    EXPECT_TRUE(second->mine);
    EXPECT_GT(second->fence, first->fence);
    EXPECT_EQ(second->owner, "node-b");
}

TEST_F(LeasesTest, RenewalKeepsALeaseAlivePastItsTtl) {
    LostLog lost;
    const auto a = node("node-a", 300ms, lost.handler());
    const auto b = node("node-b", 300ms);
    ASSERT_TRUE(a && b);
    const auto claim = a->acquire("g1", 0);
    ASSERT_TRUE(claim) << claim.error();
    std::this_thread::sleep_for(1000ms);
    EXPECT_TRUE(a->holds("g1", claim->fence));
    const auto other = b->acquire("g1", 0);
    ASSERT_TRUE(other) << other.error();
    EXPECT_FALSE(other->mine);
    EXPECT_EQ(other->owner, "node-a");
    EXPECT_TRUE(lost.reports().empty());
}

TEST_F(LeasesTest, ANodeThatCannotCommitRenewsNothingAndItsGamesGoToAnother) {
    LostLog lost;
    std::atomic<bool> can_commit{true};
    Leases::Options options{url_, "node-a", 300ms, prefix_, {}};
    options.healthy = [&]() -> core::Status {
        if (can_commit.load()) {
            return core::ok_status();
        }
        return core::make_error("the writer hangs");
    };
    auto opened = Leases::open(std::move(options), lost.handler());
    ASSERT_TRUE(opened) << opened.error();
    const auto& a = *opened;
    const auto b = node("node-b", 300ms);
    ASSERT_TRUE(b);
    const auto claim = a->acquire("g1", 0);
    ASSERT_TRUE(claim) << claim.error();
    std::this_thread::sleep_for(600ms);  // renewed while healthy
    ASSERT_TRUE(a->holds("g1", claim->fence));

    can_commit = false;
    const auto failed_at = std::chrono::steady_clock::now();
    ASSERT_TRUE(lost.wait_for(1, 2000ms)) << "a lease of a node that cannot commit was kept";
    // One ttl after the last round that renewed, and a round to notice (with room for a slow CI).
    EXPECT_LT(std::chrono::steady_clock::now() - failed_at, 1500ms);
    EXPECT_FALSE(a->holds("g1", claim->fence));
    EXPECT_EQ(lost.reports().front(), std::make_pair(std::string("g1"), claim->fence));
    // The node's own deadline runs out a little before Redis's (it counts from the start of the
    // renewal, Redis from its arrival): another node gets the lease within moments.
    auto taken = b->acquire("g1", 0);
    for (int i = 0; i < 50 && taken && !taken->mine; ++i) {
        std::this_thread::sleep_for(20ms);
        taken = b->acquire("g1", 0);
    }
    ASSERT_TRUE(taken) << taken.error();
    EXPECT_TRUE(taken->mine);
    EXPECT_GT(taken->fence, claim->fence);
    // It stopped saying it is alive too: the game counts as ownerless from the last round.
    EXPECT_GT(taken->unowned.count(), 0);
}

// Issue 42: GET /metrics's figures of a node's leases: held now, renewal rounds that failed (here
// because the node cannot commit), and leases lost.
TEST_F(LeasesTest, StatsCountLeasesHeldRenewalRoundsFailedAndLeasesLost) {
    LostLog lost;
    std::atomic<bool> can_commit{true};
    Leases::Options options{url_, "node-a", 300ms, prefix_, {}};
    options.healthy = [&]() -> core::Status {
        return can_commit.load() ? core::ok_status() : core::make_error("the writer hangs");
    };
    auto opened = Leases::open(std::move(options), lost.handler());
    ASSERT_TRUE(opened) << opened.error();
    const auto& a = *opened;
    EXPECT_EQ(a->stats().held, 0u);
    const auto first = a->acquire("g1", 0);
    const auto second = a->acquire("g2", 0);
    ASSERT_TRUE(first && second);
    EXPECT_EQ(a->stats().held, 2u);
    a->release("g2", second->fence);
    EXPECT_EQ(a->stats().held, 1u);
    std::this_thread::sleep_for(350ms);  // rounds that renewed
    EXPECT_EQ(a->stats().renewal_failures, 0u);
    EXPECT_EQ(a->stats().lost, 0u);

    can_commit = false;
    ASSERT_TRUE(lost.wait_for(1, 2000ms));
    const auto stats = a->stats();
    EXPECT_EQ(stats.held, 0u);
    EXPECT_EQ(stats.lost, 1u) << "a lease given back is not lost";
    EXPECT_GE(stats.renewal_failures, 2u) << "every round in a ttl failed";
}

TEST_F(LeasesTest, LeaseDeletedBehindTheNodesBackIsReportedLostOnce) {
    LostLog lost;
    const auto a = node("node-a", 300ms, lost.handler());
    ASSERT_TRUE(a);
    const auto claim = a->acquire("g1", 0);
    const auto kept = a->acquire("g2", 0);
    ASSERT_TRUE(claim && kept);
    const auto redis = raw_redis();
    ASSERT_TRUE(redis);
    ASSERT_TRUE(redis->command({"DEL", prefix_ + "lease:g1"}));

    ASSERT_TRUE(lost.wait_for(1, 2000ms));
    EXPECT_FALSE(a->holds("g1", claim->fence));
    EXPECT_TRUE(a->holds("g2", kept->fence));
    EXPECT_EQ(a->held_count(), 1u);
    std::this_thread::sleep_for(400ms);
    const auto reports = lost.reports();
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].first, "g1");
    EXPECT_EQ(reports[0].second, claim->fence);
    // Never silently taken again: the key stays free until someone acquires it.
    EXPECT_EQ(redis->command({"EXISTS", prefix_ + "lease:g1"})->integer, 0);
}

TEST_F(LeasesTest, LeaseTakenByAnotherNodeIsReportedLost) {
    LostLog lost;
    const auto a = node("node-a", 300ms, lost.handler());
    ASSERT_TRUE(a);
    const auto claim = a->acquire("g1", 0);
    ASSERT_TRUE(claim) << claim.error();
    const auto redis = raw_redis();
    ASSERT_TRUE(redis);
    ASSERT_TRUE(redis->command({"SET", prefix_ + "lease:g1", "node-b|99", "PX", "5000"}));
    ASSERT_TRUE(lost.wait_for(1, 2000ms));
    EXPECT_FALSE(a->holds("g1", claim->fence));
    EXPECT_EQ(redis->command({"GET", prefix_ + "lease:g1"})->text, "node-b|99");
}

// Redis unreachable: the lease runs out by the node's own clock and is reported lost once.
TEST(LeasesWithoutRedis, UnrenewedLeaseExpiresLocally) {
    test::PrivateRedis server;
    ASSERT_TRUE(server.start());
    LostLog lost;
    auto opened =
        Leases::open({server.url(), "node-a", 300ms, test::unique_prefix(), {}}, lost.handler());
    ASSERT_TRUE(opened) << opened.error();
    const auto& a = *opened;
    const auto claim = a->acquire("g1", 0);
    ASSERT_TRUE(claim) << claim.error();
    ASSERT_TRUE(server.stop());

    ASSERT_TRUE(lost.wait_for(1, 2000ms));
    EXPECT_FALSE(a->holds("g1", claim->fence));
    EXPECT_FALSE(a->acquire("g2", 0));
    std::this_thread::sleep_for(300ms);
    EXPECT_EQ(lost.reports().size(), 1u);
    EXPECT_GE(a->stats().renewal_failures, 1u) << "rounds without Redis are counted as failed";
    EXPECT_EQ(a->stats().lost, 1u);
    EXPECT_EQ(a->stats().held, 0u);
}

TEST_F(LeasesTest, DestructorIsPrompt) {
    auto a = node("node-a", 6000ms);
    ASSERT_TRUE(a);
    ASSERT_TRUE(a->acquire("g1", 0));
    std::this_thread::sleep_for(50ms);
    const auto start = std::chrono::steady_clock::now();
    a.reset();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 200ms);
}

TEST_F(LeasesTest, ManyThreadsAcquireAndCheckAtOnce) {
    const auto a = node("node-a", 300ms);
    ASSERT_TRUE(a);
    std::atomic<int> mine{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 20; ++i) {
                const auto game = std::to_string(t * 100 + i);
                const auto claim = a->acquire(game, 0);
                if (claim && claim->mine && a->holds(game, claim->fence)) {
                    ++mine;
                }
                if (i % 2 == 0 && claim) {
                    a->release(game, claim->fence);
                }
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(mine.load(), 80);
    EXPECT_EQ(a->held_count(), 40u);
}

TEST(LeasesOpen, RejectsBadOptions) {
    const auto url = test::test_redis_url();
    ASSERT_TRUE(url) << url.error();
    const auto bad_url = Leases::open({"http://x", "node-a", 5000ms, "p:", {}}, {});
    ASSERT_FALSE(bad_url);
    EXPECT_NE(bad_url.error().find("Redis URL"), std::string::npos) << bad_url.error();
    const auto no_id = Leases::open({*url, "", 5000ms, "p:", {}}, {});
    ASSERT_FALSE(no_id);
    EXPECT_NE(no_id.error().find("node id"), std::string::npos) << no_id.error();
    EXPECT_FALSE(Leases::open({*url, "a|b", 5000ms, "p:", {}}, {}));
    const auto short_ttl = Leases::open({*url, "node-a", 1ms, "p:", {}}, {});
    ASSERT_FALSE(short_ttl);
    EXPECT_NE(short_ttl.error().find("ttl"), std::string::npos) << short_ttl.error();
    const auto no_server =
        Leases::open({"unix:///nonexistent/chessence/redis.sock", "node-a", 5000ms, "p:", {}}, {});
    ASSERT_FALSE(no_server);
    EXPECT_NE(no_server.error().find("cannot connect"), std::string::npos) << no_server.error();
}

}  // namespace
