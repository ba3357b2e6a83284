#pragma once
// Where the rooms read the time for their clocks: the steady clock in the server, a hand-moved one
// in tests (tests/server/manual_time.h), so a flag can be tested without waiting for it. A source
// whose time jumps tells its listeners, and the server has every room look at its clocks again.
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace server {

class TimeSource {
public:
    using TimePoint = std::chrono::steady_clock::time_point;

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

class SteadyTimeSource final : public TimeSource {
public:
    TimePoint now() const override { return std::chrono::steady_clock::now(); }
};

}  // namespace server
