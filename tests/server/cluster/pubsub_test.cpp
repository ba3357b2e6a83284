#include "server/cluster/pubsub.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "server/cluster/test_redis.h"

namespace {

using server::cluster::PubSub;
using namespace std::chrono_literals;

// What a node's handlers were told, in order.
class PubSubInbox {
public:
    PubSub::MessageHandler on_message() {
        return [this](const std::string& channel, const std::string& message) {
            std::lock_guard lock(mutex_);
            messages_.emplace_back(channel, message);
            changed_.notify_all();
        };
    }
    PubSub::ConnectionHandler on_connection() {
        return [this](bool up) {
            std::lock_guard lock(mutex_);
            connection_.push_back(up);
            changed_.notify_all();
        };
    }
    // Waits up to `limit` for at least `count` messages.
    bool wait_for_messages(std::size_t count, std::chrono::milliseconds limit = 3000ms) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, limit, [&] { return messages_.size() >= count; });
    }
    // Waits up to `limit` for at least `count` connection reports.
    bool wait_for_reports(std::size_t count, std::chrono::milliseconds limit) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, limit, [&] { return connection_.size() >= count; });
    }
    std::vector<std::pair<std::string, std::string>> messages() {
        std::lock_guard lock(mutex_);
        return messages_;
    }
    std::vector<bool> reports() {
        std::lock_guard lock(mutex_);
        return connection_;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::pair<std::string, std::string>> messages_;
    std::vector<bool> connection_;
};

// Nodes on the tests' Redis server, on channels of this test's own.
class PubSubTest : public testing::Test {
protected:
    void SetUp() override {
        const auto url = test::test_redis_url();
        ASSERT_TRUE(url) << url.error();
        url_ = *url;
    }

    std::unique_ptr<PubSub> node(PubSubInbox& inbox) {
        auto opened = PubSub::open({url_, 2000ms}, inbox.on_message(), inbox.on_connection());
        EXPECT_TRUE(opened) << opened.error();
        return opened ? std::move(*opened) : nullptr;
    }
    std::string channel(const std::string& name) const { return prefix_ + name; }

    std::string url_;
    const std::string prefix_ = test::unique_prefix();
};

TEST_F(PubSubTest, MessageAfterSubscribeArrivesOnceWithItsChannel) {
    PubSubInbox inbox;
    const auto a = node(inbox);
    ASSERT_TRUE(a);
    ASSERT_TRUE(a->subscribe(channel("lobby")));
    EXPECT_EQ(a->subscription_count(), 1u);
    const auto receivers = a->publish(channel("lobby"), "hello");
    ASSERT_TRUE(receivers) << receivers.error();
    EXPECT_EQ(*receivers, 1);
    ASSERT_TRUE(inbox.wait_for_messages(1));
    ASSERT_TRUE(a->publish(channel("other"), "not for us"));
    ASSERT_TRUE(a->publish(channel("lobby"), "marker"));
    ASSERT_TRUE(inbox.wait_for_messages(2));
    const auto messages = inbox.messages();
    ASSERT_EQ(messages.size(), 2u);
    EXPECT_EQ(messages[0], std::pair(channel("lobby"), std::string("hello")));
    EXPECT_EQ(messages[1], std::pair(channel("lobby"), std::string("marker")));
    EXPECT_TRUE(inbox.reports().empty());
}

TEST_F(PubSubTest, ThousandMessagesArriveInOrder) {
    PubSubInbox inbox;
    const auto a = node(inbox);
    ASSERT_TRUE(a);
    ASSERT_TRUE(a->subscribe(channel("events")));
    for (int i = 0; i < 1000; ++i) {
        ASSERT_TRUE(a->publish(channel("events"), std::to_string(i)));
    }
    ASSERT_TRUE(inbox.wait_for_messages(1000));
    const auto messages = inbox.messages();
    ASSERT_EQ(messages.size(), 1000u);
    for (int i = 0; i < 1000; ++i) {
        ASSERT_EQ(messages[i].second, std::to_string(i)) << "message " << i;
    }
}

TEST_F(PubSubTest, BinaryPayloadArrivesIntact) {
    PubSubInbox inbox;
    const auto a = node(inbox);
    ASSERT_TRUE(a);
    const std::string binary_channel = channel(std::string("bin\0ary", 7));
    ASSERT_TRUE(a->subscribe(binary_channel));
    std::string payload(64 * 1024, '\0');
    for (std::size_t i = 0; i < payload.size(); ++i) {
        payload[i] = static_cast<char>((i * 7919) % 256);
    }
    ASSERT_TRUE(a->publish(binary_channel, payload));
    ASSERT_TRUE(a->publish(binary_channel, ""));
    ASSERT_TRUE(inbox.wait_for_messages(2));
    const auto messages = inbox.messages();
    EXPECT_EQ(messages[0].first, binary_channel);
    EXPECT_TRUE(messages[0].second == payload);
    EXPECT_EQ(messages[1].second, "");
}

TEST_F(PubSubTest, TwoNodesTalkBothWays) {
    PubSubInbox inbox_a;
    PubSubInbox inbox_b;
    const auto a = node(inbox_a);
    const auto b = node(inbox_b);
    ASSERT_TRUE(a && b);
    ASSERT_TRUE(a->subscribe(channel("node:a")));
    ASSERT_TRUE(b->subscribe(channel("node:b")));
    EXPECT_EQ(*a->publish(channel("node:b"), "from a"), 1);
    EXPECT_EQ(*b->publish(channel("node:a"), "from b"), 1);
    ASSERT_TRUE(inbox_a.wait_for_messages(1));
    ASSERT_TRUE(inbox_b.wait_for_messages(1));
    EXPECT_EQ(inbox_a.messages()[0], std::pair(channel("node:a"), std::string("from b")));
    EXPECT_EQ(inbox_b.messages()[0], std::pair(channel("node:b"), std::string("from a")));
}

TEST_F(PubSubTest, UnsubscribeStopsDelivery) {
    PubSubInbox inbox;
    const auto a = node(inbox);
    ASSERT_TRUE(a);
    ASSERT_TRUE(a->subscribe(channel("gone")));
    ASSERT_TRUE(a->subscribe(channel("kept")));
    EXPECT_EQ(a->subscription_count(), 2u);
    ASSERT_TRUE(a->unsubscribe(channel("gone")));
    EXPECT_EQ(a->subscription_count(), 1u);
    EXPECT_EQ(*a->publish(channel("gone"), "lost"), 0);
    EXPECT_EQ(*a->publish(channel("kept"), "marker"), 1);
    ASSERT_TRUE(inbox.wait_for_messages(1));
    const auto messages = inbox.messages();
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_EQ(messages[0].second, "marker");
    ASSERT_TRUE(a->unsubscribe(channel("never subscribed")));
    EXPECT_EQ(a->subscription_count(), 1u);
}

TEST_F(PubSubTest, PublishCountsSubscribers) {
    PubSubInbox inbox_a;
    PubSubInbox inbox_b;
    const auto a = node(inbox_a);
    const auto b = node(inbox_b);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(*a->publish(channel("shared"), "nobody"), 0);
    ASSERT_TRUE(a->subscribe(channel("shared")));
    EXPECT_EQ(*a->publish(channel("shared"), "one"), 1);
    ASSERT_TRUE(b->subscribe(channel("shared")));
    ASSERT_TRUE(b->subscribe(channel("shared")));  // again: still one subscriber
    EXPECT_EQ(b->subscription_count(), 1u);
    EXPECT_EQ(*a->publish(channel("shared"), "two"), 2);
    ASSERT_TRUE(inbox_a.wait_for_messages(2));
    ASSERT_TRUE(inbox_b.wait_for_messages(1));
    EXPECT_EQ(inbox_b.messages().size(), 1u);
}

TEST_F(PubSubTest, ManyThreadsSubscribeAtOnce) {
    PubSubInbox inbox;
    const auto a = node(inbox);
    ASSERT_TRUE(a);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < 25; ++i) {
                EXPECT_TRUE(a->subscribe(channel(std::to_string(t * 100 + i))));
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    EXPECT_EQ(a->subscription_count(), 100u);
    EXPECT_EQ(*a->publish(channel("317"), "x"), 1);
}

TEST_F(PubSubTest, SubscribeFromTheHandlerIsAnError) {
    std::mutex mutex;
    std::condition_variable answered;
    std::optional<bool> subscribed;
    std::unique_ptr<PubSub> a;
    auto opened = PubSub::open({url_, 2000ms}, [&](const std::string&, const std::string&) {
        const bool done = a->subscribe(channel("inner")).ok();
        std::lock_guard lock(mutex);
        subscribed = done;
        answered.notify_all();
    });
    ASSERT_TRUE(opened) << opened.error();
    a = std::move(*opened);
    ASSERT_TRUE(a->subscribe(channel("outer")));
    ASSERT_TRUE(a->publish(channel("outer"), "x"));
    std::unique_lock lock(mutex);
    ASSERT_TRUE(answered.wait_for(lock, 1000ms, [&] { return subscribed.has_value(); }));
    EXPECT_FALSE(*subscribed);
}

TEST_F(PubSubTest, DestructorIsPrompt) {
    PubSubInbox inbox;
    auto a = node(inbox);
    ASSERT_TRUE(a);
    ASSERT_TRUE(a->subscribe(channel("quiet")));
    const auto start = std::chrono::steady_clock::now();
    a.reset();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 500ms);
}

TEST(PubSubOpen, RejectsBadUrlAndMissingServer) {
    const auto bad = PubSub::open({"http://cache", 2000ms}, {});
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().find("unknown scheme"), std::string::npos) << bad.error();
    const auto missing = PubSub::open({"unix:///nonexistent/redis.sock", 2000ms}, {});
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().find("cannot connect"), std::string::npos) << missing.error();
}

// The server goes away and comes back: the loss and the return are reported, the subscriptions
// are restored (and only those), and the destructor stays prompt while reconnecting.
TEST(PubSubReconnect, SubscriptionsComeBackWithTheServer) {
    test::PrivateRedis server;
    ASSERT_TRUE(server.start());
    PubSubInbox inbox;
    auto opened = PubSub::open({server.url(), 300ms}, inbox.on_message(), inbox.on_connection());
    ASSERT_TRUE(opened) << opened.error();
    auto a = std::move(*opened);
    ASSERT_TRUE(a->subscribe("restored:1"));
    ASSERT_TRUE(a->subscribe("restored:2"));

    EXPECT_EQ(a->reconnect_count(), 0u);

    ASSERT_TRUE(server.stop());
    ASSERT_TRUE(inbox.wait_for_reports(1, 3000ms));
    EXPECT_EQ(inbox.reports(), std::vector<bool>{false});
    EXPECT_EQ(a->reconnect_count(), 0u) << "lost, not yet restored";
    EXPECT_FALSE(a->publish("restored:1", "while down"));
    // A request Redis cannot confirm in time fails, and is not sent later.
    const auto late = a->subscribe("late");
    ASSERT_FALSE(late);
    EXPECT_NE(late.error().find("no confirmation within 300 ms"), std::string::npos)
        << late.error();

    ASSERT_TRUE(server.start());
    ASSERT_TRUE(inbox.wait_for_reports(2, 5000ms));
    EXPECT_EQ(inbox.reports(), (std::vector<bool>{false, true}));
    EXPECT_EQ(a->subscription_count(), 2u);
    EXPECT_EQ(a->reconnect_count(), 1u) << "GET /metrics's chessence_pubsub_reconnects_total";
    // The publish that failed dropped the publisher's connection: this one connects again.
    const auto receivers = a->publish("restored:2", "back");
    ASSERT_TRUE(receivers) << receivers.error();
    EXPECT_EQ(*receivers, 1);
    ASSERT_TRUE(inbox.wait_for_messages(1));
    EXPECT_EQ(inbox.messages()[0], std::pair(std::string("restored:2"), std::string("back")));

    ASSERT_TRUE(server.stop());
    ASSERT_TRUE(inbox.wait_for_reports(3, 3000ms));
    const auto start = std::chrono::steady_clock::now();
    a.reset();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 500ms);
}

}  // namespace
