#include "server/cluster/cluster_clock.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <string_view>
#include <utility>

#include "server/log.h"

namespace server::cluster {

namespace {

// How often a correction being slewed in moves the applied offset.
constexpr std::chrono::milliseconds slew_step{10};

std::int64_t micros(std::chrono::steady_clock::duration d) {
    return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
}

std::int64_t wall_us_now() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Redis's TIME reply ([seconds, microseconds] as strings) in microseconds since the epoch.
core::Expected<std::int64_t> time_reply_us(const RedisReply& reply) {
    if (reply.kind != RedisReply::Kind::array || reply.elements.size() != 2) {
        return core::make_error("TIME did not answer [seconds, microseconds]");
    }
    std::int64_t parts[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
        const auto& text = reply.elements[static_cast<std::size_t>(i)].text;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parts[i]);
        if (ec != std::errc() || end != text.data() + text.size()) {
            return core::make_error("TIME answered `" + text + "`, not a number");
        }
    }
    return parts[0] * 1'000'000 + parts[1];
}

const std::shared_ptr<spdlog::logger>& clock_log() {
    return component_logger("cluster");
}

}  // namespace

core::Expected<std::shared_ptr<ClusterClock>> ClusterClock::open(Options options) {
    auto url = parse_redis_url(options.url);
    if (!url) {
        return core::make_error(url.error());
    }
    auto redis = RedisConnection::open(*url, options.timeout);
    if (!redis) {
        return core::make_error("the cluster clock: " + redis.error());
    }
    std::shared_ptr<ClusterClock> clock(new ClusterClock(std::move(options), std::move(*redis)));
    auto first = clock->sample_round();
    if (!first) {
        return core::make_error("the cluster clock: " + first.error());
    }
    clock->measured_ = *first;
    clock->applied_us_ = first->offset_us;
    clock_log()->info(
        "cluster clock: Redis's clock is {} ms ahead of this node's (round trip {} us)",
        first->offset_us / 1000, first->round_trip_us);
    clock->sampler_ = std::thread([raw = clock.get()] { raw->run(); });
    return clock;
}

ClusterClock::ClusterClock(Options options, std::unique_ptr<RedisConnection> redis)
    : options_(std::move(options)),
      start_wall_us_(wall_us_now()),
      start_steady_(std::chrono::steady_clock::now()),
      redis_(std::move(redis)) {}

ClusterClock::~ClusterClock() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (sampler_.joinable()) {
        sampler_.join();
    }
}

std::int64_t ClusterClock::local_us() const {
    if (options_.local) {
        return options_.local();
    }
    return start_wall_us_ + micros(std::chrono::steady_clock::now() - start_steady_) +
           options_.local_skew.count() * 1000;
}

TimeSource::TimePoint ClusterClock::now() const {
    auto reading = local_us() + applied_us_.load(std::memory_order_relaxed);
    // Never back: a reading below the last one (a jump back, or two threads racing around a slew
    // step) is the last one.
    auto last = last_read_us_.load(std::memory_order_relaxed);
    while (reading > last &&
           !last_read_us_.compare_exchange_weak(last, reading, std::memory_order_relaxed)) {
    }
    reading = std::max(reading, last);
    return TimePoint(std::chrono::milliseconds(reading / 1000));
}

std::int64_t ClusterClock::measured_offset_us() const {
    std::lock_guard lock(mutex_);
    return measured_.offset_us;
}

std::chrono::microseconds ClusterClock::round_trip() const {
    std::lock_guard lock(mutex_);
    return std::chrono::microseconds(measured_.round_trip_us);
}

core::Expected<ClusterClock::Sample> ClusterClock::sample_round() {
    Sample best{0, std::numeric_limits<std::int64_t>::max()};
    for (int i = 0; i < std::max(1, options_.samples); ++i) {
        const auto sent = local_us();
        auto reply = redis_->command({"TIME"});
        const auto answered = local_us();
        if (!reply) {
            return core::make_error(reply.error());
        }
        auto redis_us = time_reply_us(*reply);
        if (!redis_us) {
            return core::make_error(redis_us.error());
        }
        const auto round_trip = std::max<std::int64_t>(0, answered - sent);
        if (round_trip < best.round_trip_us) {
            best = {*redis_us - (sent + round_trip / 2), round_trip};
        }
    }
    if (best.round_trip_us > options_.max_round_trip.count() * 1000) {
        return core::make_error("TIME's least round trip was " +
                                std::to_string(best.round_trip_us / 1000) + " ms");
    }
    return best;
}

bool ClusterClock::adopt(const Sample& sample) {
    {
        std::lock_guard lock(mutex_);
        measured_ = sample;
    }
    const auto error = sample.offset_us - applied_us_.load(std::memory_order_relaxed);
    if (std::abs(error) <= options_.jump_above.count() * 1000) {
        return false;  // slewed in by run()
    }
    applied_us_ = sample.offset_us;
    clock_log()->warn("cluster clock: {} ms off Redis's clock, jumped{}", error / 1000,
                      error < 0 ? " (the readings stand still until it catches up)" : "");
    return true;
}

bool ClusterClock::slew(std::int64_t elapsed_us) {
    const auto target = measured_.offset_us;  // written by this thread only
    const auto applied = applied_us_.load(std::memory_order_relaxed);
    if (applied == target) {
        return false;
    }
    const auto step = std::max<std::int64_t>(
        1, static_cast<std::int64_t>(static_cast<double>(elapsed_us) * options_.slew_rate));
    const auto next =
        applied < target ? std::min(target, applied + step) : std::max(target, applied - step);
    applied_us_.store(next, std::memory_order_relaxed);
    return next != target;
}

void ClusterClock::run() {
    auto next_round = std::chrono::steady_clock::now() + options_.sample_every;
    auto last_step = std::chrono::steady_clock::now();
    bool slewing = measured_.offset_us != applied_us_.load();
    bool reachable = true;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            const auto until =
                slewing ? std::min(next_round, std::chrono::steady_clock::now() + slew_step)
                        : next_round;
            if (wake_.wait_until(lock, until, [&] { return stopping_; })) {
                return;
            }
        }
        const auto now = std::chrono::steady_clock::now();
        slewing = slew(micros(now - last_step));
        last_step = now;
        if (now < next_round) {
            continue;
        }
        next_round = now + options_.sample_every;
        auto sample = sample_round();
        if (!sample) {
            if (reachable) {
                clock_log()->warn("cluster clock: {}; keeping the last offset", sample.error());
            }
            reachable = false;
            continue;
        }
        if (!reachable) {
            clock_log()->info("cluster clock: Redis answers TIME again");
        }
        reachable = true;
        if (adopt(*sample)) {
            jumped();
        }
        slewing = measured_.offset_us != applied_us_.load();
        last_step = std::chrono::steady_clock::now();
    }
}

}  // namespace server::cluster
