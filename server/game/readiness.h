#pragma once
// Whether this node should be sent players (GET /readyz), known without a round trip on the
// thread that asks: a thread of its own (never an I/O thread) keeps the answers to "can the store
// be written?", "can it be read?" and, in cluster mode, "does Redis answer?", and /readyz reads
// what it last found.
//
// - Writes. The store counts the batches that failed (Store::commits_failed). A new failure makes
//   the thread try a harmless write at once (the heartbeat's, Heartbeat::beat_now), and its
//   outcome is the writer's health: a full or read-only disk makes the node unwritable, while one
//   batch refused for its own reasons (a fence, a name taken) does not. While unwritable it tries
//   again every readiness_interval, so the node comes back without waiting for a player's move.
// - A writer that hangs: while commits are in flight and none has finished for readiness_stall
//   (Store::stalled_for), the store counts as unwritable. state() reads this itself, since the
//   thread's own write may be the one that hangs.
// - Reads: Store::check every readiness_interval.
// - Redis (cluster mode): PING on a connection of its own every readiness_interval.
// A change of readiness is logged once, when the thread sees it.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "core/expected.h"
#include "server/store/store.h"

namespace server {

// How often a failing write is tried again, and the store and Redis are checked.
inline constexpr std::chrono::milliseconds readiness_interval{1000};
// How often the thread looks for new failed batches (two atomic loads).
inline constexpr std::chrono::milliseconds readiness_tick{100};
// How long the writer may go without finishing a commit, commits in flight, before the store
// counts as unwritable.
inline constexpr std::chrono::milliseconds readiness_stall{2000};
// How long a PING may take before Redis counts as unreachable.
inline constexpr std::chrono::milliseconds readiness_redis_timeout{500};

class Readiness {
public:
    // In the order /readyz reports them when several hold.
    enum class Status { ready, store_unwritable, store_unreachable, redis_unreachable };
    struct State {
        Status status = Status::ready;
        std::string error;  // why not ready; "" when ready
        bool ready() const { return status == Status::ready; }
    };
    // One check: ok, or why not. Called on the readiness thread only.
    using Check = std::function<core::Status()>;

    // `write` is the harmless write, waited for (it never runs on an I/O thread).
    Readiness(Store& store, Check write);
    Readiness(const Readiness&) = delete;
    Readiness& operator=(const Readiness&) = delete;
    ~Readiness();

    // Cluster mode, before start(): Redis is checked too, by `ping`.
    void watch_redis(Check ping);
    // Starts the thread (its first round at once). Until then the node counts as ready.
    void start();
    // Stops the thread (waits for a check under way); state() keeps its last answer.
    void stop();
    // What the last checks found. Any thread; takes a short lock and asks nothing.
    State state() const;
    // One round of the checks due at `now`: the thread's loop, every readiness_tick.
    void check(std::chrono::steady_clock::time_point now);

    // "ready", "store_unwritable", "store_unreachable", "redis_unreachable": /readyz's status.
    static std::string_view name(Status status);

private:
    using Clock = std::chrono::steady_clock;
    void run();
    // Sets one check's outcome and, when the state changes, logs it.
    void record(core::Status& slot, core::Status outcome);
    State current() const;  // under mutex_
    // The writer's stall as a state (ready when it is not stalled), logged when it starts and ends.
    State stall() const;

    Store& store_;
    Check write_;
    Check ping_;

    // The thread's own (check() alone touches them).
    std::uint64_t failures_seen_ = 0;
    Clock::time_point next_write_{};
    Clock::time_point next_read_{};
    Clock::time_point next_ping_{};

    mutable std::mutex mutex_;
    core::Status written_ = core::ok_status();
    core::Status read_ = core::ok_status();
    core::Status pinged_ = core::ok_status();
    bool stopping_ = false;
    mutable bool stalled_ = false;  // as last logged
    std::condition_variable wake_;
    std::thread thread_;
};

// A check that PINGs the Redis at `url` on a connection of its own (readiness_redis_timeout), or
// why none could be opened.
core::Expected<Readiness::Check> redis_ping(const std::string& url);

}  // namespace server
