#pragma once
// Where the rooms read the time for their clocks: the server's clock (ServerClock), a hand-moved
// one in tests (tests/server/manual_time.h), so a flag can be tested without waiting for it. A
// source whose time jumps tells its listeners, and the server has every room look at its clocks
// again.
//
// Time is wall time in milliseconds (ServerTime), because clock readings are stored and must mean
// the same after a restart; within one process it never goes back (ServerClock).
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace server {

// Milliseconds since the Unix epoch, as the server counts them.
using ServerTime = std::chrono::time_point<std::chrono::system_clock, std::chrono::milliseconds>;

// Milliseconds since the epoch of `t`, as stored.
inline std::int64_t unix_ms(ServerTime t) {
    return t.time_since_epoch().count();
}
inline ServerTime from_unix_ms(std::int64_t ms) {
    return ServerTime(std::chrono::milliseconds(ms));
}

class TimeSource {
public:
    using TimePoint = ServerTime;

    virtual ~TimeSource() = default;
    virtual TimePoint now() const = 0;

    // `listener` runs (on the thread that moved the time) after every jump of this source's time,
    // until forget(the number returned). The steady clock never jumps.
    int on_jump(std::function<void()> listener) {
        std::lock_guard lock(mutex_);
        listeners_.emplace_back(++last_listener_, std::move(listener));
        return last_listener_;
    }
    void forget(int listener) {
        std::lock_guard lock(mutex_);
        std::erase_if(listeners_, [&](const auto& entry) { return entry.first == listener; });
    }

protected:
    // Calls the listeners under the lock, so forget() returns only once none of them runs.
    void jumped() {
        std::lock_guard lock(mutex_);
        for (const auto& entry : listeners_) {
            entry.second();
        }
    }

private:
    std::mutex mutex_;
    std::vector<std::pair<int, std::function<void()>>> listeners_;
    int last_listener_ = 0;
};

// The wall clock as it was when the server started, moved on by the steady clock: it agrees with
// the wall clock across restarts, and an adjustment of the system clock while the server runs
// (NTP, a change by hand) neither charges nor refunds anybody's time.
class ServerClock final : public TimeSource {
public:
    // `skew` sets the clock off by that much: the fault suite's skew between nodes
    // (tests/faults/fault_server.cpp); zero otherwise.
    explicit ServerClock(std::chrono::milliseconds skew = {})
        : start_wall_(std::chrono::time_point_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now()) +
                      skew) {}

    TimePoint now() const override {
        return start_wall_ + std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::steady_clock::now() - start_steady_);
    }

private:
    TimePoint start_wall_;
    std::chrono::steady_clock::time_point start_steady_ = std::chrono::steady_clock::now();
};

}  // namespace server
