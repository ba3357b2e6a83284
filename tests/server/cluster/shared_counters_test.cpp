// Counters shared by a cluster's nodes (server/cluster/shared_counters.h), and the login limits
// counted in them: an address or an account meets one limit whichever node it reaches.
#include "server/cluster/shared_counters.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>

#include "server/cluster/test_redis.h"
#include "server/game/address_limits.h"
#include "server/game/login_limiter.h"

namespace {

using server::LoginLimiter;
using server::LoginPolicy;
using server::cluster::SharedCounters;
using namespace std::chrono_literals;

class SharedCountersTest : public testing::Test {
protected:
    void SetUp() override {
        const auto url = test::test_redis_url();
        ASSERT_TRUE(url) << url.error();
        url_ = *url;
    }
    std::shared_ptr<SharedCounters> counters() {
        auto opened = SharedCounters::open(url_, prefix_);
        EXPECT_TRUE(opened) << opened.error();
        return opened ? std::shared_ptr<SharedCounters>(std::move(*opened)) : nullptr;
    }

    std::string url_;
    const std::string prefix_ = test::unique_prefix();
};

TEST_F(SharedCountersTest, CountsAcrossConnectionsUntilTheWindowEnds) {
    auto a = counters();
    auto b = counters();
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a->count("k"), 0);
    EXPECT_EQ(*a->add("k", 300ms), 1);
    EXPECT_EQ(*b->add("k", 300ms), 2) << "another node's count is the same count";
    EXPECT_EQ(*a->count("k"), 2);
    std::this_thread::sleep_for(400ms);
    EXPECT_EQ(*b->count("k"), 0) << "the window ended";
    EXPECT_EQ(*b->add("k", 300ms), 1);
    ASSERT_TRUE(a->reset("k"));
    EXPECT_EQ(*b->count("k"), 0);
}

TEST_F(SharedCountersTest, AnUnreachableRedisIsAnError) {
    EXPECT_FALSE(SharedCounters::open("redis://127.0.0.1:1", prefix_));
    EXPECT_FALSE(SharedCounters::open("http://nope", prefix_));
}

TEST_F(SharedCountersTest, LoginLimitsCountAcrossNodes) {
    LoginPolicy policy;
    policy.attempts_per_ip = 4;
    policy.failures_per_address = 2;
    policy.failures_per_account = 3;
    LoginLimiter node_a(policy);
    LoginLimiter node_b(policy);
    node_a.share(counters());
    node_b.share(counters());

    // One address, attempts spread over two nodes: four in all, not four on each.
    EXPECT_TRUE(node_a.try_attempt("10.0.0.1", ""));
    EXPECT_TRUE(node_b.try_attempt("10.0.0.1", ""));
    EXPECT_TRUE(node_a.try_attempt("10.0.0.1", ""));
    EXPECT_TRUE(node_b.try_attempt("10.0.0.1", ""));
    EXPECT_FALSE(node_a.try_attempt("10.0.0.1", ""));
    EXPECT_FALSE(node_b.try_attempt("10.0.0.1", ""));
    EXPECT_TRUE(node_b.try_attempt("10.0.0.2", "")) << "another address is not held back";

    // An address's failures on A hold it back on B too, until its success; the owner from
    // another address is never held back.
    node_a.failed("10.0.0.3", "alice");
    node_a.failed("10.0.0.3", "alice");
    EXPECT_FALSE(node_b.try_attempt("10.0.0.3", "alice"));
    EXPECT_TRUE(node_b.try_attempt("10.0.0.4", "alice"));
    node_a.succeeded("10.0.0.3", "alice");
    EXPECT_TRUE(node_b.try_attempt("10.0.0.3", "alice"));

    // Three failures on the account in all (two forgotten by the success above do not count
    // for 10.0.0.3, but do for the account): an address with one failure is refused everywhere.
    node_b.failed("10.0.0.5", "alice");
    EXPECT_FALSE(node_a.try_attempt("10.0.0.5", "alice"));
    EXPECT_TRUE(node_a.try_attempt("10.0.0.6", "alice"));
}

TEST_F(SharedCountersTest, GuestAndChatLimitsPerAddressCountAcrossNodes) {
    server::Limits limits;
    limits.guests_per_ip_per_hour = 3;
    limits.chat_per_ip = 2;
    server::AddressLimits node_a(limits);
    server::AddressLimits node_b(limits);
    auto shared = counters();
    node_a.share(shared);
    node_b.share(counters());
    EXPECT_TRUE(node_a.try_new_guest("10.1.0.1"));
    EXPECT_TRUE(node_b.try_new_guest("10.1.0.1"));
    EXPECT_TRUE(node_a.try_new_guest("10.1.0.1"));
    EXPECT_FALSE(node_b.try_new_guest("10.1.0.1")) << "three guests in all, not three a node";
    EXPECT_TRUE(node_b.try_chat("10.1.0.1"));
    EXPECT_TRUE(node_a.try_chat("10.1.0.1"));
    EXPECT_FALSE(node_b.try_chat("10.1.0.1"));
    EXPECT_TRUE(node_b.try_chat("10.1.0.2")) << "another address is not held back";
}

}  // namespace
