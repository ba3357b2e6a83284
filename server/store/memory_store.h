#pragma once
// A Store kept in memory: for tests and `--db :memory:`. Thread-safe; nothing survives the process.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/store/store.h"

namespace server {

class MemoryStore : public Store {
public:
    // Applies the batch at once on the calling thread, all or nothing, then calls `done`.
    void commit(WriteBatch batch, CommitHandler done) override;
    std::optional<PlayerRecord> player(std::string_view id) override;
    std::optional<PlayerRecord> player_by_token_hash(std::string_view token_hash) override;
    std::optional<GameRecord> game(std::string_view id) override;
    std::vector<GameRecord> unfinished_games() override;
    std::vector<StoredEvent> events(std::string_view game_id, std::int64_t after_version) override;
    std::vector<GameRecord> finished_games_of(std::string_view player_id, int offset,
                                              int limit) override;
    std::vector<SeekRecord> seeks() override;

private:
    core::Status apply(const WriteOp& op, std::vector<std::function<void()>>& undo);

    struct StoredGame {
        GameRecord record;
        std::vector<StoredEvent> events;
        std::int64_t order = 0;  // creation order, to break ties in finished_games_of
    };

    std::mutex mutex_;
    std::map<std::string, PlayerRecord, std::less<>> players_;
    std::map<std::string, StoredGame, std::less<>> games_;
    std::map<std::string, SeekRecord, std::less<>> seeks_;
    std::int64_t next_order_ = 0;
};

std::unique_ptr<Store> make_memory_store();

}  // namespace server
