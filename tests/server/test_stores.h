#pragma once
// A memory store for the server tests that records every batch and can be told to refuse, or to
// throw on, the batches that append events or insert players.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "server/store/memory_store.h"

namespace test {

class ControlledStore final : public server::MemoryStore {
public:
    void commit(server::WriteBatch batch, server::CommitHandler done) override {
        const bool appends = has<server::AppendEvents>(batch);
        if (appends && throw_appends) {
            throw std::runtime_error("the disk caught fire");
        }
        if ((appends && fail_appends) || (has<server::InsertPlayer>(batch) && fail_players)) {
            done(core::make_error("disk full"));
            return;
        }
        {
            std::lock_guard lock(batches_mutex_);
            batches_.push_back(batch);
        }
        MemoryStore::commit(std::move(batch), std::move(done));
    }

    // The last committed batch that appended events to `game_id` (empty if none).
    server::WriteBatch last_batch_of(const std::string& game_id) {
        std::lock_guard lock(batches_mutex_);
        for (auto it = batches_.rbegin(); it != batches_.rend(); ++it) {
            for (const auto& op : *it) {
                const auto* append = std::get_if<server::AppendEvents>(&op);
                if (append && append->game_id == game_id) {
                    return *it;
                }
            }
        }
        return {};
    }

    std::atomic<bool> fail_appends{false};
    std::atomic<bool> throw_appends{false};
    std::atomic<bool> fail_players{false};

private:
    template <class Op>
    static bool has(const server::WriteBatch& batch) {
        return std::any_of(batch.begin(), batch.end(),
                           [](const auto& op) { return std::holds_alternative<Op>(op); });
    }

    std::mutex batches_mutex_;
    std::vector<server::WriteBatch> batches_;
};

}  // namespace test
