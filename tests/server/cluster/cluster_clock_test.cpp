#include "server/cluster/cluster_clock.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "server/cluster/redis_client.h"
#include "server/cluster/test_redis.h"

namespace {

using server::cluster::ClusterClock;
using server::cluster::RedisConnection;
using namespace std::chrono_literals;

std::int64_t clock_test_wall_us() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::int64_t reading_ms(const ClusterClock& clock) {
    return server::unix_ms(clock.now());
}

// Redis's clock, read on a connection of the test's own.
class RedisTime {
public:
    explicit RedisTime(const std::string& url) {
        auto parsed = server::cluster::parse_redis_url(url);
        EXPECT_TRUE(parsed) << parsed.error();
        auto opened = RedisConnection::open(*parsed, 500ms);
        EXPECT_TRUE(opened) << opened.error();
        redis_ = std::move(*opened);
    }
    std::int64_t ms() {
        auto reply = redis_->command({"TIME"});
        EXPECT_TRUE(reply) << reply.error();
        return std::stoll(reply->elements.at(0).text) * 1000 +
               std::stoll(reply->elements.at(1).text) / 1000;
    }
    // How far `clock` reads from Redis's clock (0 when between two TIMEs taken around it).
    std::int64_t distance_ms(const ClusterClock& clock) {
        const auto before = ms();
        const auto reading = reading_ms(clock);
        const auto after = ms();
        return reading < before ? before - reading : reading > after ? reading - after : 0;
    }

private:
    std::unique_ptr<RedisConnection> redis_;
};

class ClusterClockTest : public testing::Test {
protected:
    void SetUp() override {
        const auto url = test::test_redis_url();
        ASSERT_TRUE(url) << url.error();
        url_ = *url;
    }

    ClusterClock::Options options() const {
        ClusterClock::Options options;
        options.url = url_;
        options.sample_every = 50ms;
        return options;
    }

    std::string url_;
};

// A node whose own clock is 10 s ahead or behind reads Redis's clock all the same.
TEST_F(ClusterClockTest, ReadsRedisTimeWhateverTheLocalClockSays) {
    RedisTime redis(url_);
    for (const auto skew : {10'000ms, -10'000ms}) {
        auto given = options();
        given.local_skew = skew;
        auto clock = ClusterClock::open(given);
        ASSERT_TRUE(clock) << clock.error();
        EXPECT_LE(redis.distance_ms(**clock), 50) << "skew " << skew.count() << " ms";
        EXPECT_NEAR(static_cast<double>((*clock)->offset_us()), -1000.0 * skew.count(), 50'000.0);
        std::this_thread::sleep_for(200ms);  // a few rounds later, still
        EXPECT_LE(redis.distance_ms(**clock), 50) << "skew " << skew.count() << " ms";
    }
}

// The node's clock stepped under the cluster clock: a small error is slewed in (100 ms on, the
// offset applied is still far from the one measured), a large one jumps at once and is told to
// the listeners; a reader never sees the time go back (a step forward of the node's clock is seen
// at once, and its correction back stands the clock still), and the clock ends within 50 ms of
// Redis's each time.
TEST_F(ClusterClockTest, NeverGoesBackAcrossACorrection) {
    std::atomic<std::int64_t> shift_us{0};
    auto given = options();
    given.slew_rate = 0.5;  // 200 ms slewed in within 400 ms
    given.local = [&] { return clock_test_wall_us() + shift_us.load(); };
    auto opened = ClusterClock::open(given);
    ASSERT_TRUE(opened) << opened.error();
    auto& clock = **opened;
    std::atomic<int> jumps{0};
    const auto listener = clock.on_jump([&] { ++jumps; });

    std::atomic<bool> reading{true};
    std::atomic<std::int64_t> went_back{0};
    std::thread reader([&] {
        auto last = reading_ms(clock);
        while (reading.load()) {
            const auto now = reading_ms(clock);
            went_back = std::max(went_back.load(), last - now);
            last = now;
        }
    });

    RedisTime redis(url_);
    struct Step {
        std::int64_t shift_ms;  // the node's clock this much off
        bool jump;
        std::chrono::milliseconds settled;  // when the clock reads Redis's again
    };
    int jumps_expected = 0;
    for (const auto step : {Step{-200, false, 700ms}, Step{-2200, true, 700ms},
                            Step{-2000, false, 700ms}, Step{-1000, true, 1400ms}}) {
        shift_us = step.shift_ms * 1000;
        std::this_thread::sleep_for(100ms);
        const auto unapplied = std::abs(clock.measured_offset_us() - clock.offset_us()) / 1000;
        if (step.jump) {
            ++jumps_expected;
            EXPECT_LE(unapplied, 5) << "jumped at once: local clock shifted to " << step.shift_ms;
        } else {
            EXPECT_GT(unapplied, 60)
                << "slewed, not jumped: local clock shifted to " << step.shift_ms;
        }
        EXPECT_EQ(jumps.load(), jumps_expected) << "local clock shifted to " << step.shift_ms;
        std::this_thread::sleep_for(step.settled - 100ms);
        EXPECT_LE(redis.distance_ms(clock), 50) << "local clock shifted to " << step.shift_ms;
    }
    reading = false;
    reader.join();
    clock.forget(listener);
    EXPECT_EQ(went_back.load(), 0);
}

// With Redis stopped the clock keeps the last offset and goes on with the node's own clock;
// when Redis is back it reads Redis's clock as before.
TEST_F(ClusterClockTest, KeepsTimeWhileRedisIsStopped) {
    test::PrivateRedis server;
    ASSERT_TRUE(server.start());
    auto given = options();
    given.url = server.url();
    given.local_skew = 10'000ms;
    auto opened = ClusterClock::open(given);
    ASSERT_TRUE(opened) << opened.error();
    auto& clock = **opened;
    const auto offset = clock.offset_us();

    ASSERT_TRUE(server.stop());
    const auto stopped_at = reading_ms(clock);
    const auto wall_at = clock_test_wall_us() / 1000;
    std::this_thread::sleep_for(600ms);
    // The test's Redis runs on this machine: its clock is the wall clock.
    const auto elapsed = clock_test_wall_us() / 1000 - wall_at;
    EXPECT_NEAR(static_cast<double>(reading_ms(clock) - stopped_at), static_cast<double>(elapsed),
                20.0);
    EXPECT_NEAR(static_cast<double>(reading_ms(clock)),
                static_cast<double>(clock_test_wall_us() / 1000), 50.0);
    EXPECT_EQ(clock.offset_us(), offset);

    ASSERT_TRUE(server.start());
    RedisTime redis(server.url());
    std::this_thread::sleep_for(300ms);
    EXPECT_LE(redis.distance_ms(clock), 50);
}

// No Redis at start: an error, not a clock that would read this node's own time.
TEST(ClusterClockOpen, UnreachableRedisIsAnError) {
    ClusterClock::Options given;
    given.url = "unix:///nonexistent/chessence/redis.sock";
    const auto opened = ClusterClock::open(given);
    ASSERT_FALSE(opened);
    EXPECT_NE(opened.error().find("cluster clock"), std::string::npos) << opened.error();
}

}  // namespace
