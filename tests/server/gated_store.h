#pragma once
// A memory store whose reads of one kind can be held at a gate (issue 42 slice 3): while the gate
// is closed, every read of that kind ("player", "events", "game_ratings": the Store method's name)
// waits until the test opens it, as a read of a store that hangs does. Tests use it to show that
// no strand waits for such a read: the lobby and the other rooms go on answering meanwhile. A
// gate left closed opens by itself after `gate_limit`, so that code which does wait for it (the
// code before the fix) makes a test fail instead of hanging it. It can also report the next
// batches that append events failed though they were stored (a COMMIT whose answer was lost), and
// throw on the next commits. And the reads of one game's record (close_on) can wait at a gate of
// their own, for the room directory's tests.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

#include "server/store/memory_store.h"

namespace test {

class GatedStore final : public server::MemoryStore {
public:
    static constexpr std::chrono::seconds gate_limit{8};

    // From now on the reads named `what` wait (until open()).
    void close_gate(std::string what) {
        std::lock_guard lock(mutex_);
        gated_ = std::move(what);
    }
    // Lets every held read go on, and the later ones through.
    void open_gate() {
        {
            std::lock_guard lock(mutex_);
            gated_.clear();
        }
        changed_.notify_all();
    }
    // Waits until `count` reads wait at the gate; false after `timeout`.
    bool wait_held(int count, std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, timeout, [&] { return held_ >= count; });
    }
    int held() {
        std::lock_guard lock(mutex_);
        return held_;
    }

    // Reads of `game_id`'s record wait from now on, until open().
    void close_on(std::string game_id) {
        std::lock_guard lock(mutex_);
        gated_game_ = std::move(game_id);
        game_open_ = false;
    }
    void open() {
        {
            std::lock_guard lock(mutex_);
            game_open_ = true;
        }
        changed_.notify_all();
    }
    // How many reads of that game's record were made so far (while its gate was closed or not).
    int arrived() {
        std::lock_guard lock(mutex_);
        return arrived_;
    }
    core::Expected<std::optional<server::GameRecord>> game(std::string_view id) override {
        {
            std::unique_lock lock(mutex_);
            if (!gated_game_.empty() && id == gated_game_) {
                ++arrived_;
                changed_.wait(lock, [&] { return game_open_; });
            }
        }
        return MemoryStore::game(id);
    }

    // The next `land_then_fail` batches that append events are stored, then reported failed.
    std::atomic<int> land_then_fail{0};
    // The next `throw_commits` commits throw (a handler that throws: the room rebuilds itself).
    std::atomic<int> throw_commits{0};

    void commit_batch(server::WriteBatch batch, server::CommitHandler done) override {
        if (take_one(throw_commits)) {
            throw std::runtime_error("test store: commit refused by throwing");
        }
        const bool appends = std::any_of(batch.begin(), batch.end(), [](const auto& op) {
            return std::holds_alternative<server::AppendEvents>(op);
        });
        if (appends && take_one(land_then_fail)) {
            MemoryStore::commit_batch(
                std::move(batch), [done = std::move(done)](core::Status stored) {
                    done(stored ? core::make_error("test store: commit landed, its answer was lost")
                                : std::move(stored));
                });
            return;
        }
        MemoryStore::commit_batch(std::move(batch), std::move(done));
    }
    core::Expected<std::optional<server::PlayerRecord>> player(std::string_view id) override {
        pass("player");
        return MemoryStore::player(id);
    }
    core::Expected<std::vector<server::StoredEvent>> events(std::string_view game_id,
                                                            std::int64_t after_version) override {
        pass("events");
        return MemoryStore::events(game_id, after_version);
    }
    core::Expected<std::vector<server::GameRating>> game_ratings(
        std::string_view game_id) override {
        pass("game_ratings");
        return MemoryStore::game_ratings(game_id);
    }

private:
    static bool take_one(std::atomic<int>& left) {
        int n = left.load();
        while (n > 0) {
            if (left.compare_exchange_weak(n, n - 1)) {
                return true;
            }
        }
        return false;
    }
    // Waits while the gate for `what` is closed (at most gate_limit).
    void pass(std::string_view what) {
        std::unique_lock lock(mutex_);
        if (gated_ != what) {
            return;
        }
        ++held_;
        changed_.notify_all();
        changed_.wait_for(lock, gate_limit, [&] { return gated_ != what; });
        --held_;
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::string gated_;
    int held_ = 0;
    std::string gated_game_;
    bool game_open_ = true;
    int arrived_ = 0;
};

}  // namespace test
