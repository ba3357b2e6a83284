#pragma once
// Stores for the server tests: a memory store that records every batch and can be told to refuse
// every batch, or to refuse or throw on the batches that append events or insert players; and a
// wrapper around any store whose reads fail (or answer late) on demand.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "server/store/memory_store.h"

namespace test {

class ControlledStore final : public server::MemoryStore {
public:
    void commit_batch(server::WriteBatch batch, server::CommitHandler done) override {
        if (fail_all) {
            done(core::make_error("disk full"));
            return;
        }
        const bool appends = has<server::AppendEvents>(batch);
        if (appends && throw_appends) {
            throw std::runtime_error("the disk caught fire");
        }
        if ((appends && fail_appends) || (has<server::InsertPlayer>(batch) && fail_players)) {
            done(core::make_error("disk full"));
            return;
        }
        if ((has<server::SaveSeek>(batch) && slow_seeks) ||
            (has<server::InsertPlayer>(batch) && slow_players) || (appends && slow_appends)) {
            // A slow disk: the seek (the player, the events) is written slow_ms later, on another
            // thread.
            std::thread([this, batch = std::move(batch), done = std::move(done),
                         delay = std::chrono::milliseconds(slow_ms.load())]() mutable {
                std::this_thread::sleep_for(delay);
                MemoryStore::commit_batch(std::move(batch), std::move(done));
            }).detach();
            return;
        }
        {
            std::lock_guard lock(batches_mutex_);
            batches_.push_back(batch);
        }
        MemoryStore::commit_batch(std::move(batch), std::move(done));
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

    std::atomic<bool> fail_all{false};  // every batch is refused (a full or read-only disk)
    std::atomic<bool> fail_appends{false};
    std::atomic<bool> throw_appends{false};
    std::atomic<bool> fail_players{false};
    std::atomic<bool> slow_seeks{false};
    std::atomic<bool> slow_players{false};
    std::atomic<bool> slow_appends{false};  // events are stored slow_ms late (a slow disk)
    std::atomic<int> slow_ms{300};

private:
    template <class Op>
    static bool has(const server::WriteBatch& batch) {
        return std::any_of(batch.begin(), batch.end(),
                           [](const auto& op) { return std::holds_alternative<Op>(op); });
    }

    std::mutex batches_mutex_;
    std::vector<server::WriteBatch> batches_;
};

// Wraps a real store (a memory store by default); while `fail_reads` is set every read returns an
// error ("test store: cannot read …") instead of asking the store, as a SQLite read does when the
// disk or the file fails. Commits always reach the real store.
class ReadFailingStore final : public server::Store {
public:
    explicit ReadFailingStore(std::unique_ptr<server::Store> inner = server::make_memory_store())
        : inner_(std::move(inner)) {}

    std::atomic<bool> fail_reads{false};
    // When set, only the read of this name fails ("analysis", "game", …: the Store method's name).
    std::atomic<const char*> fail_only{nullptr};
    // How many reads failed so far.
    std::atomic<int> failed_reads{0};
    // check() answers this many ms late (a store that hangs).
    std::atomic<int> slow_check_ms{0};

    server::Store& inner() { return *inner_; }

    // The next `throw_commits` commits throw (to drive a room into rebuilding itself).
    std::atomic<int> throw_commits{0};

    // The next `land_then_fail` batches that append events are stored, then reported failed (a
    // COMMIT that landed but whose answer was lost).
    std::atomic<int> land_then_fail{0};

    // While set, every batch is held back, not handed to the real store (a writer that hangs:
    // a disk that does not answer); release_held() hands them over in order once it is cleared.
    std::atomic<bool> hold_commits{false};
    // Hands the held batches to the real store, in order, unless hold_commits is set; how many.
    std::size_t release_held() {
        std::lock_guard lock(held_mutex_);
        if (hold_commits.load()) {
            return 0;
        }
        const auto count = held_.size();
        while (!held_.empty()) {
            auto [batch, done] = std::move(held_.front());
            held_.pop_front();
            forward(std::move(batch), std::move(done));
        }
        return count;
    }

    void commit_batch(server::WriteBatch batch, server::CommitHandler done) override {
        std::lock_guard lock(held_mutex_);
        if (hold_commits.load() || !held_.empty()) {
            held_.emplace_back(std::move(batch), std::move(done));
            return;
        }
        forward(std::move(batch), std::move(done));
    }

private:
    void forward(server::WriteBatch batch, server::CommitHandler done) {
        if (take(throw_commits)) {
            throw std::runtime_error("test store: commit refused by throwing");
        }
        const bool appends = std::any_of(batch.begin(), batch.end(), [](const auto& op) {
            return std::holds_alternative<server::AppendEvents>(op);
        });
        if (appends && take(land_then_fail)) {
            inner_->commit(std::move(batch), [done = std::move(done)](core::Status stored) {
                done(stored ? core::make_error("test store: commit landed, its answer was lost")
                            : std::move(stored));
            });
            return;
        }
        inner_->commit(std::move(batch), std::move(done));
    }
    std::recursive_mutex held_mutex_;  // a memory store calls a handler, which may commit, at once
    std::deque<std::pair<server::WriteBatch, server::CommitHandler>> held_;

public:
    core::Status check() override {
        std::this_thread::sleep_for(std::chrono::milliseconds(slow_check_ms.load()));
        if (fail_reads.load()) {
            return core::make_error("test store: cannot read (check)");
        }
        return inner_->check();
    }
    core::Expected<std::optional<server::PlayerRecord>> player(std::string_view id) override {
        return read("player", [&] { return inner_->player(id); });
    }
    core::Expected<std::optional<server::PlayerRecord>> player_by_token_hash(
        std::string_view hash) override {
        return read("player_by_token_hash", [&] { return inner_->player_by_token_hash(hash); });
    }
    core::Expected<std::optional<server::GameRecord>> game(std::string_view id) override {
        return read("game", [&] { return inner_->game(id); });
    }
    core::Expected<std::vector<server::GameRecord>> unfinished_games() override {
        return read("unfinished_games", [&] { return inner_->unfinished_games(); });
    }
    core::Expected<std::vector<std::string>> unfinished_game_ids_of(
        std::string_view player_id) override {
        return read("unfinished_game_ids_of",
                    [&] { return inner_->unfinished_game_ids_of(player_id); });
    }
    core::Expected<std::vector<server::StoredEvent>> events(std::string_view game_id,
                                                            std::int64_t after_version) override {
        return read("events", [&] { return inner_->events(game_id, after_version); });
    }
    core::Expected<std::vector<server::ChatLine>> chat_lines(std::string_view game_id) override {
        return read("chat_lines", [&] { return inner_->chat_lines(game_id); });
    }
    core::Expected<std::vector<server::SeekRecord>> seeks() override {
        return read("seeks", [&] { return inner_->seeks(); });
    }
    core::Expected<std::vector<server::ServerRun>> server_runs() override {
        return read("server_runs", [&] { return inner_->server_runs(); });
    }
    core::Expected<std::optional<server::AnalysisRecord>> analysis(
        std::string_view game_id) override {
        return read("analysis", [&] { return inner_->analysis(game_id); });
    }
    core::Expected<std::vector<server::AnalysisRecord>> queued_analyses() override {
        return read("queued_analyses", [&] { return inner_->queued_analyses(); });
    }
    core::Expected<std::optional<server::TournamentRecord>> tournament(
        std::string_view id) override {
        return read("tournament", [&] { return inner_->tournament(id); });
    }
    core::Expected<std::vector<server::TournamentRecord>> tournaments(
        const server::TournamentQuery& query) override {
        return read("tournaments", [&] { return inner_->tournaments(query); });
    }
    core::Expected<std::vector<server::TournamentRecord>> unfinished_tournaments() override {
        return read("unfinished_tournaments", [&] { return inner_->unfinished_tournaments(); });
    }
    core::Expected<std::vector<server::StoredTournamentEvent>> tournament_events(
        std::string_view id, std::int64_t after_version) override {
        return read("tournament_events",
                    [&] { return inner_->tournament_events(id, after_version); });
    }
    core::Expected<int> tournaments_created_since(std::string_view player_id,
                                                  std::int64_t since_ms) override {
        return read("tournaments_created_since",
                    [&] { return inner_->tournaments_created_since(player_id, since_ms); });
    }
    core::Expected<std::vector<server::GameRecord>> tournament_games(
        std::string_view tournament_id) override {
        return read("tournament_games", [&] { return inner_->tournament_games(tournament_id); });
    }
    core::Expected<std::optional<server::AccountRecord>> account(
        std::string_view player_id) override {
        return read("account", [&] { return inner_->account(player_id); });
    }
    core::Expected<std::optional<server::AccountRecord>> account_by_username(
        std::string_view username) override {
        return read("account_by_username", [&] { return inner_->account_by_username(username); });
    }
    core::Expected<server::Moderation> moderation(std::string_view player_id) override {
        return read("moderation", [&] { return inner_->moderation(player_id); });
    }
    core::Expected<std::vector<std::string>> muted_players() override {
        return read("muted_players", [&] { return inner_->muted_players(); });
    }
    core::Expected<std::vector<server::RatingRecord>> ratings_of(
        std::string_view player_id) override {
        return read("ratings_of", [&] { return inner_->ratings_of(player_id); });
    }
    core::Expected<std::vector<server::GameRating>> game_ratings(
        std::string_view game_id) override {
        return read("game_ratings", [&] { return inner_->game_ratings(game_id); });
    }
    core::Expected<std::vector<server::GameRating>> rating_history(
        std::string_view player_id) override {
        return read("rating_history", [&] { return inner_->rating_history(player_id); });
    }
    core::Expected<std::vector<server::LeaderboardRow>> leaderboard(std::string_view variant,
                                                                    double max_rd,
                                                                    std::int64_t active_since,
                                                                    int limit) override {
        return read("leaderboard",
                    [&] { return inner_->leaderboard(variant, max_rd, active_since, limit); });
    }
    core::Expected<std::vector<server::GameRecord>> find_games(
        const server::GameQuery& query) override {
        return read("find_games", [&] { return inner_->find_games(query); });
    }
    core::Expected<server::GameTally> tally(std::string_view player_id,
                                            std::string_view viewer_id) override {
        return read("tally", [&] { return inner_->tally(player_id, viewer_id); });
    }

private:
    // Takes one from `count` if it is above zero; whether it did.
    static bool take(std::atomic<int>& count) {
        int n = count.load();
        while (n > 0 && !count.compare_exchange_weak(n, n - 1)) {
        }
        return n > 0;
    }

    // The inner store's answer, or an error naming the read while reads fail.
    template <class Read>
    auto read(const char* what, Read&& ask) -> decltype(ask()) {
        const char* only = fail_only.load();
        if (fail_reads && (only == nullptr || std::string_view(only) == what)) {
            ++failed_reads;
            return core::make_error(std::string("test store: cannot read ") + what);
        }
        return ask();
    }

    std::unique_ptr<server::Store> inner_;
};

}  // namespace test
