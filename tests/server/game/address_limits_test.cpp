// Issue 23: what one address may hold or do, counted with a clock the test moves.
#include "server/game/address_limits.h"

#include <gtest/gtest.h>

#include <variant>
#include <vector>

namespace {

using server::AddressLimits;
using Clock = AddressLimits::Clock;

class AddressLimitsTest : public ::testing::Test {
protected:
    AddressLimitsTest() {
        limits_.connections_per_ip = 2;
        limits_.connections_total = 3;
        limits_.guests_per_ip_per_hour = 2;
        limits_.chat_per_ip = 3;
        limits_.http_per_ip = 2;
    }

    AddressLimits make() {
        return AddressLimits(limits_, [this] { return now_; });
    }

    server::Limits limits_;
    Clock::time_point now_ = Clock::time_point(std::chrono::hours(1000));
};

TEST_F(AddressLimitsTest, ConnectionsPerAddressAndInAll) {
    auto limits = make();
    auto a1 = limits.open_connection("10.0.0.1");
    auto a2 = limits.open_connection("10.0.0.1");
    ASSERT_TRUE(std::holds_alternative<AddressLimits::Slot>(a1));
    ASSERT_TRUE(std::holds_alternative<AddressLimits::Slot>(a2));
    auto a3 = limits.open_connection("10.0.0.1");
    ASSERT_TRUE(std::holds_alternative<AddressLimits::Refusal>(a3));
    EXPECT_EQ(std::get<AddressLimits::Refusal>(a3).status, 429);
    EXPECT_EQ(limits.connections_of("10.0.0.1"), 2);

    auto b1 = limits.open_connection("10.0.0.2");
    ASSERT_TRUE(std::holds_alternative<AddressLimits::Slot>(b1)) << "another address is not held";
    auto c1 = limits.open_connection("10.0.0.3");
    ASSERT_TRUE(std::holds_alternative<AddressLimits::Refusal>(c1));
    EXPECT_EQ(std::get<AddressLimits::Refusal>(c1).status, 503) << "the server is full";
    EXPECT_EQ(limits.connections(), 3);

    a1 = AddressLimits::Refusal{};  // the first connection closes
    EXPECT_EQ(limits.connections_of("10.0.0.1"), 1);
    EXPECT_EQ(limits.connections(), 2);
    EXPECT_TRUE(std::holds_alternative<AddressLimits::Slot>(limits.open_connection("10.0.0.1")))
        << "its place is free again (and this slot closes at once)";
    EXPECT_EQ(limits.connections(), 2);
}

// A session may end after the server's state: the counts live as long as the last slot (the asan
// preset reports a use after free here if they died with the limits).
TEST_F(AddressLimitsTest, ASlotMayOutliveTheLimits) {
    AddressLimits::Slot slot;
    {
        auto limits = make();
        slot = std::get<AddressLimits::Slot>(limits.open_connection("10.0.0.1"));
        EXPECT_EQ(limits.connections(), 1);
    }
    EXPECT_EQ(slot.use_count(), 1) << "the slot alone keeps the counts";
    slot.reset();
}

TEST_F(AddressLimitsTest, NewGuestsPerHour) {
    auto limits = make();
    EXPECT_TRUE(limits.try_new_guest("10.0.0.1"));
    EXPECT_TRUE(limits.try_new_guest("10.0.0.1"));
    EXPECT_FALSE(limits.try_new_guest("10.0.0.1"));
    EXPECT_TRUE(limits.try_new_guest("10.0.0.2"));
    now_ += std::chrono::minutes(59);
    EXPECT_FALSE(limits.try_new_guest("10.0.0.1"));
    now_ += std::chrono::minutes(1);
    EXPECT_TRUE(limits.try_new_guest("10.0.0.1")) << "an hour later";
}

TEST_F(AddressLimitsTest, ChatPerAddressInTheWindow) {
    auto limits = make();
    for (int i = 0; i < 3; ++i) {
        EXPECT_TRUE(limits.try_chat("10.0.0.1"));
    }
    EXPECT_FALSE(limits.try_chat("10.0.0.1"));
    EXPECT_TRUE(limits.try_chat("10.0.0.2"));
    now_ += server::chat_window;
    EXPECT_TRUE(limits.try_chat("10.0.0.1"));
}

TEST_F(AddressLimitsTest, HttpRequestsAreATokenBucket) {
    auto limits = make();
    for (int i = 0; i < 4; ++i) {
        EXPECT_TRUE(limits.try_http("10.0.0.1")) << "burst of twice the rate, request " << i;
    }
    EXPECT_FALSE(limits.try_http("10.0.0.1"));
    EXPECT_TRUE(limits.try_http("10.0.0.2"));
    now_ += std::chrono::milliseconds(500);
    EXPECT_TRUE(limits.try_http("10.0.0.1")) << "one token back after half a second at 2/s";
    EXPECT_FALSE(limits.try_http("10.0.0.1"));
}

TEST_F(AddressLimitsTest, ManyAddressesAreForgottenOnceQuiet) {
    auto limits = make();
    for (int i = 0; i < 5000; ++i) {
        EXPECT_TRUE(
            limits.try_chat("10.1." + std::to_string(i / 256) + "." + std::to_string(i % 256)));
    }
    EXPECT_GE(limits.addresses_tracked(), 4000u);
    now_ += std::chrono::hours(2);
    for (int i = 0; i < 3000; ++i) {
        (void)limits.try_http("10.0.0.9");
    }
    EXPECT_LE(limits.addresses_tracked(), 2u) << "quiet addresses are forgotten";
}

}  // namespace
