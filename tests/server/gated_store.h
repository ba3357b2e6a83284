#pragma once
// A memory store whose reads can be held at a gate (issue 42 slice 3), as the reads of a store
// that hangs are: tests use it to show that no I/O thread, session, lobby or room strand waits for
// such a read.
// - close(kind): every read of that kind (the Store method's name: "player", "game", "events",
//   "account", …, each overridden below) waits until open();
// - close_on(game_id): only the reads of that game's record wait; arrived() counts them (after
//   open() too).
// A gate left closed opens by itself after `gate_limit`, so that code which does wait for it (the
// code before the fix) makes a test fail instead of hanging it; the destructor opens every gate.
// It can also report the next batches that append events failed though they were stored (a COMMIT
// whose answer was lost), and throw on the next commits.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>

#include "server/store/memory_store.h"

namespace test {

class GatedStore final : public server::MemoryStore {
public:
    static constexpr std::chrono::seconds gate_limit{8};

    ~GatedStore() override { open(); }

    // From now on the reads named `kind` wait (until open()).
    void close(std::string kind) {
        std::lock_guard lock(mutex_);
        closed_.insert(std::move(kind));
    }
    // From now on the reads of `game_id`'s record wait (until open()).
    void close_on(std::string game_id) {
        std::lock_guard lock(mutex_);
        gated_game_ = std::move(game_id);
        game_open_ = false;
    }
    // Lets every held read go on, and the later ones through.
    void open() {
        {
            std::lock_guard lock(mutex_);
            closed_.clear();
            game_open_ = true;  // its reads are still counted
        }
        changed_.notify_all();
    }
    // Waits until `count` reads wait at a gate; false after `timeout`.
    bool wait_held(int count, std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, timeout, [&] { return held_ >= count; });
    }
    int held() {
        std::lock_guard lock(mutex_);
        return held_;
    }
    // How many reads of the close_on game's record were made (while its gate was closed or not).
    int arrived() {
        std::lock_guard lock(mutex_);
        return arrived_;
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
    core::Expected<std::optional<server::PlayerRecord>> player_by_token_hash(
        std::string_view hash) override {
        pass("player_by_token_hash");
        return MemoryStore::player_by_token_hash(hash);
    }
    core::Expected<std::optional<server::GameRecord>> game(std::string_view id) override {
        pass("game", id);
        return MemoryStore::game(id);
    }
    core::Expected<std::vector<server::GameRecord>> find_games(
        const server::GameQuery& query) override {
        pass("find_games");
        return MemoryStore::find_games(query);
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
    core::Expected<std::optional<server::AccountRecord>> account(
        std::string_view player_id) override {
        pass("account");
        return MemoryStore::account(player_id);
    }
    core::Expected<std::optional<server::AccountRecord>> account_by_username(
        std::string_view username) override {
        pass("account_by_username");
        return MemoryStore::account_by_username(username);
    }
    core::Expected<std::vector<server::RatingRecord>> ratings_of(
        std::string_view player_id) override {
        pass("ratings_of");
        return MemoryStore::ratings_of(player_id);
    }
    core::Expected<server::Moderation> moderation(std::string_view player_id) override {
        pass("moderation");
        return MemoryStore::moderation(player_id);
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
    // Waits (at most gate_limit) while the reads of `kind`, or of game `game_id`, are closed.
    void pass(std::string_view kind, std::string_view game_id = {}) {
        std::unique_lock lock(mutex_);
        const bool of_gated_game = !game_id.empty() && game_id == gated_game_;
        arrived_ += of_gated_game ? 1 : 0;
        const auto is_closed = [&] {
            return closed_.count(std::string(kind)) > 0 || (of_gated_game && !game_open_);
        };
        if (!is_closed()) {
            return;
        }
        ++held_;
        changed_.notify_all();
        changed_.wait_for(lock, gate_limit, [&] { return !is_closed(); });
        --held_;
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::set<std::string> closed_;
    std::string gated_game_;
    bool game_open_ = true;
    int held_ = 0;
    int arrived_ = 0;
};

}  // namespace test
