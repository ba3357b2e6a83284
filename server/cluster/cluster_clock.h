#pragma once
// Cluster mode's time source (issue 42, finding 11): one clock for the game clocks of every node.
// Clock readings are stored with a game's events, and a game taken over by another node is
// charged by that node's clock against the readings of the node before; with each node on its own
// clock, the skew between two nodes was charged (or refunded) at every takeover. This clock
// follows Redis's (TIME), the clock by which the leases already measure how long a game had no
// owner (leases.h, Claim::unowned), so the readings and the refunds of a takeover are of one
// clock. Why Redis rather than PostgreSQL: docs/architecture.md, "One clock across the nodes".
//
// How: a thread of its own, with a Redis connection of its own, asks TIME a few times a round
// (every `sample_every`); the answer with the least round trip gives the offset of Redis's clock
// from this node's (Redis's reading against the midpoint of the round trip, as NTP does). now()
// is this node's clock plus the offset, read from two atomics (no lock, no call out): the rooms
// read it on every move. A corrected offset is slewed in (the readings run at most `slew_rate`
// faster or slower) unless it is off by more than `jump_above`: then the offset jumps at once,
// and the listeners are told (TimeSource::jumped). Readings never go back: after a jump back they
// stand still until the corrected clock passes the last one. While Redis cannot be reached the
// last offset stays.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/expected.h"
#include "server/cluster/redis_client.h"
#include "server/game/time_source.h"

namespace server::cluster {

class ClusterClock final : public TimeSource {
public:
    // This node's own clock in microseconds since the epoch: it must never go back.
    using LocalClock = std::function<std::int64_t()>;

    struct Options {
        std::string url;  // redis://… (parse_redis_url)
        std::chrono::milliseconds sample_every{1000};
        int samples = 5;                         // TIME round trips per round
        std::chrono::milliseconds timeout{500};  // connect and command timeout
        // A round whose least round trip is longer says too little: it is not used.
        std::chrono::milliseconds max_round_trip{100};
        // While a correction is slewed in, the readings run this much faster or slower.
        double slew_rate = 0.1;
        // A correction larger than this is made at once (a jump, told to the listeners).
        std::chrono::milliseconds jump_above{500};
        // This node's clock is set off by this much: the fault suite's skew between nodes
        // (tests/faults/fault_server.cpp); zero otherwise.
        std::chrono::milliseconds local_skew{0};
        // Tests: this node's clock (null: the wall clock at open, moved on by the steady clock,
        // plus local_skew — as ServerClock).
        LocalClock local;
    };

    // Connects and takes the first round (start-up only: it waits for Redis), then starts the
    // sampling thread. An error when the URL is bad or no round could be taken.
    static core::Expected<std::shared_ptr<ClusterClock>> open(Options options);
    ClusterClock(const ClusterClock&) = delete;
    ClusterClock& operator=(const ClusterClock&) = delete;
    ~ClusterClock() override;  // stops the thread

    TimePoint now() const override;

    // Redis's clock less this node's, as now() applies it (microseconds), and as the last round
    // measured it (what the applied one is slewed towards).
    std::int64_t offset_us() const { return applied_us_.load(std::memory_order_relaxed); }
    std::int64_t measured_offset_us() const;
    // The round trip of the sample that gave the last measured offset.
    std::chrono::microseconds round_trip() const;

private:
    struct Sample {
        std::int64_t offset_us = 0;
        std::int64_t round_trip_us = 0;
    };

    ClusterClock(Options options, std::unique_ptr<RedisConnection> redis);
    std::int64_t local_us() const;
    // One round of TIME samples: the one with the least round trip, or why there is none.
    core::Expected<Sample> sample_round();
    // Takes the round's offset as the target; a large error jumps (true: the listeners are due).
    bool adopt(const Sample& sample);
    // Moves the applied offset one slew step (`elapsed_us` of local time) towards the target;
    // true while it is not there yet.
    bool slew(std::int64_t elapsed_us);
    void run();

    const Options options_;
    const std::int64_t start_wall_us_;
    const std::chrono::steady_clock::time_point start_steady_;
    std::unique_ptr<RedisConnection> redis_;  // the sampling thread's own

    std::atomic<std::int64_t> applied_us_{0};
    mutable std::atomic<std::int64_t> last_read_us_{0};  // now() never reads less

    mutable std::mutex mutex_;  // guards what follows
    std::condition_variable wake_;
    Sample measured_;
    bool stopping_ = false;
    std::thread sampler_;
};

}  // namespace server::cluster
