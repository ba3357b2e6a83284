#pragma once
// A time source for the game clocks that moves only when a test moves it: a flag is tested by
// advancing the time past it, never by waiting. Every jump has the server's rooms look at their
// clocks (server/game/time_source.h).
#include <chrono>
#include <mutex>

#include "server/game/time_source.h"

namespace test {

class ManualTime final : public server::TimeSource {
public:
    TimePoint now() const override {
        std::lock_guard lock(mutex_);
        return now_;
    }

    // Moves the time on; with `tell` false the rooms are not told (as if their timers were late),
    // so only the next request makes them look.
    void advance(std::chrono::milliseconds by, bool tell = true) {
        {
            std::lock_guard lock(mutex_);
            now_ += by;
        }
        if (tell) {
            jumped();
        }
    }

private:
    mutable std::mutex mutex_;
    TimePoint now_ =
        std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
};

}  // namespace test
