#pragma once
// A memory store that throws on demand: the next `fail_reads` reads and the next `fail_commits`
// commits throw std::runtime_error("test store: …"), to drive a handler into an exception.
#include <atomic>
#include <stdexcept>

#include "server/store/memory_store.h"

namespace test {

class ThrowingStore : public server::MemoryStore {
public:
    std::atomic<int> fail_reads{0};
    std::atomic<int> fail_commits{0};

    void commit_batch(server::WriteBatch batch, server::CommitHandler done) override {
        if (take(fail_commits)) {
            throw std::runtime_error("test store: commit refused by throwing");
        }
        MemoryStore::commit_batch(std::move(batch), std::move(done));
    }
    core::Expected<std::optional<server::PlayerRecord>> player(std::string_view id) override {
        check_read();
        return MemoryStore::player(id);
    }
    core::Expected<std::optional<server::PlayerRecord>> player_by_token_hash(
        std::string_view hash) override {
        check_read();
        return MemoryStore::player_by_token_hash(hash);
    }
    core::Expected<std::optional<server::GameRecord>> game(std::string_view id) override {
        check_read();
        return MemoryStore::game(id);
    }
    core::Expected<std::vector<server::GameRecord>> unfinished_games() override {
        check_read();
        return MemoryStore::unfinished_games();
    }
    core::Expected<std::vector<std::string>> unfinished_game_ids_of(
        std::string_view player_id) override {
        check_read();
        return MemoryStore::unfinished_game_ids_of(player_id);
    }
    core::Expected<std::vector<server::StoredEvent>> events(std::string_view game_id,
                                                            std::int64_t after_version) override {
        check_read();
        return MemoryStore::events(game_id, after_version);
    }
    core::Expected<std::vector<server::SeekRecord>> seeks() override {
        check_read();
        return MemoryStore::seeks();
    }

private:
    // Whether one of `left` failures is due now (and counts it).
    static bool take(std::atomic<int>& left) {
        int n = left.load();
        while (n > 0) {
            if (left.compare_exchange_weak(n, n - 1)) {
                return true;
            }
        }
        return false;
    }
    void check_read() {
        if (take(fail_reads)) {
            throw std::runtime_error("test store: read refused by throwing");
        }
    }
};

}  // namespace test
