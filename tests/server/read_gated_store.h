#pragma once
// A memory store whose reads of the kinds overridden below can be held at a gate: close(read) and
// every call of that read (the Store method's name: "game", "account_by_username", …) waits on the
// thread that made it until open(). Tests use it to prove that a read that hangs blocks no I/O
// thread and no session's strand. (gated_store.h gates the reads the rooms and the lobby make.)
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "server/store/memory_store.h"

namespace test {

class ReadGatedStore final : public server::MemoryStore {
public:
    ~ReadGatedStore() override { open(); }

    // From now on, calls of `read` wait until open().
    void close(std::string read) {
        std::lock_guard lock(mutex_);
        closed_.insert(std::move(read));
    }
    // Lets every held read go, and the later ones through.
    void open() {
        {
            std::lock_guard lock(mutex_);
            closed_.clear();
        }
        changed_.notify_all();
    }
    // True once `count` reads wait at the gate; false after `timeout`.
    bool wait_for_held(int count, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, timeout, [&] { return held_ >= count; });
    }
    int held() {
        std::lock_guard lock(mutex_);
        return held_;
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
        pass("game");
        return MemoryStore::game(id);
    }
    core::Expected<std::vector<server::GameRecord>> find_games(
        const server::GameQuery& query) override {
        pass("find_games");
        return MemoryStore::find_games(query);
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
    core::Expected<server::Moderation> moderation(std::string_view player_id) override {
        pass("moderation");
        return MemoryStore::moderation(player_id);
    }

private:
    // Waits while `read` is closed (counted in held_ meanwhile).
    void pass(std::string_view read) {
        std::unique_lock lock(mutex_);
        const auto is_closed = [&] { return closed_.find(std::string(read)) != closed_.end(); };
        if (!is_closed()) {
            return;
        }
        ++held_;
        changed_.notify_all();
        changed_.wait(lock, [&] { return !is_closed(); });
        --held_;
    }

    std::mutex mutex_;
    std::condition_variable changed_;
    std::set<std::string> closed_;
    int held_ = 0;
};

}  // namespace test
