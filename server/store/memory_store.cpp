#include "server/store/memory_store.h"

#include <algorithm>

#include "server/metrics/metrics.h"

namespace server {

// Applies one write, or says why it cannot; `undo` gets what reverts it.
core::Status MemoryStore::apply(const WriteOp& op, Undo& undo) {
    return std::visit(
        [&](const auto& w) -> core::Status {
            using W = std::decay_t<decltype(w)>;
            if constexpr (std::is_same_v<W, InsertPlayer>) {
                if (players_.count(w.player.id)) {
                    return core::make_error("player " + w.player.id + " exists already");
                }
                if (sessions_.count(w.player.token_hash)) {
                    return core::make_error("a session with this token exists already");
                }
                players_[w.player.id] = w.player;
                sessions_[w.player.token_hash] = w.player.id;
                undo.push_back([this, id = w.player.id, token = w.player.token_hash] {
                    players_.erase(id);
                    sessions_.erase(token);
                });
            } else if constexpr (std::is_same_v<W, RenamePlayer>) {
                auto it = players_.find(w.id);
                if (it == players_.end()) {
                    return core::make_error("no player " + w.id);
                }
                undo.push_back(
                    [&record = it->second, old = it->second.name] { record.name = old; });
                it->second.name = w.name;
            } else if constexpr (std::is_same_v<W, CreateGame>) {
                if (games_.count(w.game.id)) {
                    return core::make_error("game " + w.game.id + " exists already");
                }
                for (const auto& seat : w.game.seats) {
                    if (!players_.count(seat)) {
                        return core::make_error("a seat names unknown player " + seat);
                    }
                }
                games_[w.game.id] = StoredGame{w.game, {}, {}, next_order_++};
                undo.push_back([this, id = w.game.id] { games_.erase(id); });
            } else if constexpr (std::is_same_v<W, AppendEvents>) {
                auto it = games_.find(w.game_id);
                if (it == games_.end()) {
                    return core::make_error("no game " + w.game_id);
                }
                auto& events = it->second.events;
                const std::int64_t last = events.empty() ? 0 : events.back().version;
                if (w.first_version != last + 1) {
                    return core::make_error("event version " + std::to_string(w.first_version) +
                                            " after " + std::to_string(last));
                }
                for (std::size_t i = 0; i < w.events.size(); ++i) {
                    events.push_back({w.first_version + static_cast<std::int64_t>(i), w.events[i]});
                }
                undo.push_back(
                    [&events, size = events.size() - w.events.size()] { events.resize(size); });
            } else if constexpr (std::is_same_v<W, FinishGame>) {
                auto it = games_.find(w.game_id);
                if (it == games_.end()) {
                    return core::make_error("no game " + w.game_id);
                }
                auto& record = it->second.record;
                undo.push_back([&record, old = record] { record = old; });
                record.status = "finished";
                record.result_json = w.result_json;
                record.finished_at = w.finished_at;
            } else if constexpr (std::is_same_v<W, SaveSeek>) {
                auto it = seeks_.find(w.seek.id);
                if (it == seeks_.end()) {
                    undo.push_back([this, id = w.seek.id] { seeks_.erase(id); });
                } else {
                    undo.push_back([this, old = it->second] { seeks_[old.id] = old; });
                }
                seeks_[w.seek.id] = w.seek;
            } else if constexpr (std::is_same_v<W, DeleteSeek>) {
                for (auto it = seeks_.begin(); it != seeks_.end();) {
                    const bool gone = w.id.empty() ? it->second.node == w.node : it->first == w.id;
                    if (!gone) {
                        ++it;
                        continue;
                    }
                    undo.push_back([this, old = it->second] { seeks_[old.id] = old; });
                    it = seeks_.erase(it);
                }
            } else if constexpr (std::is_same_v<W, AddChatLine>) {
                auto it = games_.find(w.line.game_id);
                if (it == games_.end()) {
                    return core::make_error("add_chat_line: no such game " + w.line.game_id);
                }
                auto& chat = it->second.chat;
                undo.push_back([&chat, old = chat] { chat = old; });
                chat.push_back(w.line);
                const auto in_channel = [&](const ChatLine& l) {
                    return l.channel == w.line.channel;
                };
                if (static_cast<std::size_t>(std::count_if(chat.begin(), chat.end(), in_channel)) >
                    chat_lines_kept) {
                    chat.erase(std::find_if(chat.begin(), chat.end(), in_channel));
                }
            } else if constexpr (std::is_same_v<W, SaveAnalysis>) {
                const auto& id = w.analysis.game_id;
                if (!games_.count(id)) {
                    return core::make_error("save_analysis: no such game " + id);
                }
                auto it = analyses_.find(id);
                if (w.analysis.status == "queued" && it != analyses_.end()) {
                    const auto& held = it->second.record;
                    const bool claimable = held.status == "failed" ||
                                           (held.status == "queued" && held.run == w.taken_from);
                    if (!claimable) {
                        return core::ok_status();  // another run's claim: nothing written
                    }
                }
                if (it == analyses_.end()) {
                    undo.push_back([this, id] { analyses_.erase(id); });
                    analyses_[id] = StoredAnalysis{w.analysis, next_order_++};
                } else {
                    undo.push_back(
                        [this, old = it->second] { analyses_[old.record.game_id] = old; });
                    it->second.record = w.analysis;
                }
            } else if constexpr (std::is_same_v<W, RecordRun>) {
                auto it = runs_.find(w.run.started_at);
                if (it == runs_.end()) {
                    undo.push_back([this, start = w.run.started_at] { runs_.erase(start); });
                    runs_[w.run.started_at] = w.run.alive_at;
                } else {
                    undo.push_back([this, old = *it] { runs_[old.first] = old.second; });
                    it->second = std::max(it->second, w.run.alive_at);
                }
            } else if constexpr (std::is_same_v<W, ClaimGame>) {
                return apply_fence(w, undo);
            } else if constexpr (std::is_same_v<W, CheckFence>) {
                return apply_fence(w);
            } else if constexpr (std::is_same_v<W, CreateTournament> ||
                                 std::is_same_v<W, AppendTournamentEvents> ||
                                 std::is_same_v<W, SetTournamentStatus>) {
                return apply_tournament(w, undo);
            } else {
                return apply_account(w, undo);
            }
            return core::ok_status();
        },
        op);
}

void MemoryStore::commit_batch(WriteBatch batch, CommitHandler done) {
    metrics().commit_group_batches.observe(1.0);  // each batch alone
    core::Status status = core::ok_status();
    {
        std::lock_guard lock(mutex_);
        std::vector<std::function<void()>> undo;
        for (const auto& op : batch) {
            status = apply(op, undo);
            if (!status) {
                break;
            }
        }
        if (!status) {
            for (auto it = undo.rbegin(); it != undo.rend(); ++it) {
                (*it)();
            }
        }
    }
    done(std::move(status));
}

core::Expected<std::optional<PlayerRecord>> MemoryStore::player(std::string_view id) {
    std::lock_guard lock(mutex_);
    auto it = players_.find(id);
    if (it == players_.end()) {
        return std::nullopt;
    }
    return it->second;
}

core::Expected<std::optional<PlayerRecord>> MemoryStore::player_by_token_hash(
    std::string_view token_hash) {
    std::lock_guard lock(mutex_);
    auto session = sessions_.find(token_hash);
    if (session == sessions_.end()) {
        return std::nullopt;
    }
    auto it = players_.find(session->second);
    if (it == players_.end()) {
        return std::nullopt;
    }
    return it->second;
}

core::Expected<std::optional<GameRecord>> MemoryStore::game(std::string_view id) {
    std::lock_guard lock(mutex_);
    auto it = games_.find(id);
    if (it == games_.end()) {
        return std::nullopt;
    }
    return it->second.record;
}

core::Expected<std::vector<GameRecord>> MemoryStore::unfinished_games() {
    std::lock_guard lock(mutex_);
    std::vector<GameRecord> found;
    for (const auto& [id, game] : games_) {
        if (game.record.status != "finished") {
            found.push_back(game.record);
        }
    }
    return found;
}

core::Expected<std::vector<std::string>> MemoryStore::unfinished_game_ids_of(
    std::string_view player_id) {
    std::lock_guard lock(mutex_);
    std::vector<const GameRecord*> found;
    for (const auto& [id, game] : games_) {
        const auto& seats = game.record.seats;
        if (game.record.status != "finished" &&
            std::find(seats.begin(), seats.end(), player_id) != seats.end()) {
            found.push_back(&game.record);
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const GameRecord* a, const GameRecord* b) {
        return a->created_at < b->created_at;
    });
    std::vector<std::string> ids;
    for (const auto* game : found) {
        ids.push_back(game->id);
    }
    return ids;
}

core::Expected<std::vector<StoredEvent>> MemoryStore::events(std::string_view game_id,
                                                             std::int64_t after_version) {
    std::lock_guard lock(mutex_);
    std::vector<StoredEvent> found;
    auto it = games_.find(game_id);
    if (it == games_.end()) {
        return found;
    }
    for (const auto& event : it->second.events) {
        if (event.version > after_version) {
            found.push_back(event);
        }
    }
    return found;
}

core::Expected<std::vector<ChatLine>> MemoryStore::chat_lines(std::string_view game_id) {
    std::lock_guard lock(mutex_);
    auto it = games_.find(game_id);
    return it == games_.end() ? std::vector<ChatLine>{} : it->second.chat;
}

core::Expected<std::vector<SeekRecord>> MemoryStore::seeks() {
    std::lock_guard lock(mutex_);
    std::vector<SeekRecord> all;
    for (const auto& [id, seek] : seeks_) {
        all.push_back(seek);
    }
    return all;
}

core::Expected<std::vector<ServerRun>> MemoryStore::server_runs() {
    std::lock_guard lock(mutex_);
    std::vector<ServerRun> runs;
    for (const auto& [started, alive] : runs_) {
        runs.push_back({started, alive});
    }
    return runs;
}

core::Expected<std::optional<AnalysisRecord>> MemoryStore::analysis(std::string_view game_id) {
    std::lock_guard lock(mutex_);
    auto it = analyses_.find(game_id);
    if (it == analyses_.end()) {
        return std::nullopt;
    }
    return with_run_alive_at(it->second.record);
}

AnalysisRecord MemoryStore::with_run_alive_at(AnalysisRecord record) const {
    const auto run = runs_.find(record.run);
    record.run_alive_at = run == runs_.end() ? 0 : run->second;
    return record;
}

core::Expected<std::vector<AnalysisRecord>> MemoryStore::queued_analyses() {
    std::lock_guard lock(mutex_);
    std::vector<const StoredAnalysis*> queued;
    for (const auto& [id, stored] : analyses_) {
        if (stored.record.status == "queued") {
            queued.push_back(&stored);
        }
    }
    std::sort(queued.begin(), queued.end(), [](const StoredAnalysis* a, const StoredAnalysis* b) {
        return std::pair(a->record.updated_at, a->order) <
               std::pair(b->record.updated_at, b->order);
    });
    std::vector<AnalysisRecord> found;
    for (const auto* stored : queued) {
        found.push_back(with_run_alive_at(stored->record));
    }
    return found;
}

std::unique_ptr<Store> make_memory_store() {
    return std::make_unique<MemoryStore>();
}

}  // namespace server
