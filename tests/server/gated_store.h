#pragma once
// A memory store whose reads of one game wait at a gate (issue 42): while the gate is closed, a
// read of that game's record blocks the thread that makes it, as a paused or slow database does.
#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>

#include "server/store/memory_store.h"

namespace test {

class GatedStore final : public server::MemoryStore {
public:
    // Reads of `game_id`'s record wait from now on, until open().
    void close_on(std::string game_id) {
        std::lock_guard lock(mutex_);
        gated_ = std::move(game_id);
        open_ = false;
    }
    void open() {
        {
            std::lock_guard lock(mutex_);
            open_ = true;
        }
        changed_.notify_all();
    }
    // How many reads of the gated game were made so far (while the gate was closed or not).
    int arrived() {
        std::lock_guard lock(mutex_);
        return arrived_;
    }

    core::Expected<std::optional<server::GameRecord>> game(std::string_view id) override {
        {
            std::unique_lock lock(mutex_);
            if (id == gated_) {
                ++arrived_;
                changed_.wait(lock, [&] { return open_; });
            }
        }
        return MemoryStore::game(id);
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::string gated_;
    bool open_ = true;
    int arrived_ = 0;
};

}  // namespace test
