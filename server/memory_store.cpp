#include "server/memory_store.h"

#include <algorithm>

namespace server {

core::Status MemoryStore::save_player(const PlayerRecord& player) {
    std::lock_guard lock(mutex_);
    players_[player.id] = player;
    return core::ok_status();
}

std::optional<PlayerRecord> MemoryStore::player(std::string_view id) {
    std::lock_guard lock(mutex_);
    auto it = players_.find(id);
    if (it == players_.end()) {
        return std::nullopt;
    }
    return it->second;
}

std::optional<PlayerRecord> MemoryStore::player_by_token_hash(std::string_view token_hash) {
    std::lock_guard lock(mutex_);
    for (const auto& [id, record] : players_) {
        if (record.token_hash == token_hash) {
            return record;
        }
    }
    return std::nullopt;
}

core::Status MemoryStore::create_game(const GameRecord& game) {
    std::lock_guard lock(mutex_);
    if (games_.count(game.id)) {
        return core::make_error("game " + game.id + " exists already");
    }
    games_[game.id] = StoredGame{game, {}, next_order_++};
    return core::ok_status();
}

core::Status MemoryStore::append_event(std::string_view game_id, std::int64_t version,
                                       std::string_view event_json) {
    std::lock_guard lock(mutex_);
    auto it = games_.find(game_id);
    if (it == games_.end()) {
        return core::make_error("no game " + std::string(game_id));
    }
    auto& events = it->second.events;
    const std::int64_t last = events.empty() ? 0 : events.back().version;
    if (version != last + 1) {
        return core::make_error("event version " + std::to_string(version) + " after " +
                                std::to_string(last));
    }
    events.push_back({version, std::string(event_json)});
    return core::ok_status();
}

core::Status MemoryStore::finish_game(std::string_view game_id, std::string_view result_json,
                                      std::int64_t finished_at) {
    std::lock_guard lock(mutex_);
    auto it = games_.find(game_id);
    if (it == games_.end()) {
        return core::make_error("no game " + std::string(game_id));
    }
    it->second.record.status = "finished";
    it->second.record.result_json = std::string(result_json);
    it->second.record.finished_at = finished_at;
    return core::ok_status();
}

std::optional<GameRecord> MemoryStore::game(std::string_view id) {
    std::lock_guard lock(mutex_);
    auto it = games_.find(id);
    if (it == games_.end()) {
        return std::nullopt;
    }
    return it->second.record;
}

std::vector<GameRecord> MemoryStore::unfinished_games() {
    std::lock_guard lock(mutex_);
    std::vector<GameRecord> found;
    for (const auto& [id, game] : games_) {
        if (game.record.status != "finished") {
            found.push_back(game.record);
        }
    }
    return found;
}

std::vector<StoredEvent> MemoryStore::events(std::string_view game_id, std::int64_t after_version) {
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

std::vector<GameRecord> MemoryStore::finished_games_of(std::string_view player_id, int offset,
                                                       int limit) {
    std::lock_guard lock(mutex_);
    std::vector<const StoredGame*> mine;
    for (const auto& [id, game] : games_) {
        const auto& seats = game.record.seats;
        if (game.record.status == "finished" &&
            std::find(seats.begin(), seats.end(), player_id) != seats.end()) {
            mine.push_back(&game);
        }
    }
    std::sort(mine.begin(), mine.end(), [](const StoredGame* a, const StoredGame* b) {
        if (a->record.finished_at != b->record.finished_at) {
            return a->record.finished_at > b->record.finished_at;
        }
        return a->order > b->order;
    });
    std::vector<GameRecord> page;
    for (int i = std::max(offset, 0); i < static_cast<int>(mine.size()) && limit > 0;
         ++i, --limit) {
        page.push_back(mine[static_cast<std::size_t>(i)]->record);
    }
    return page;
}

core::Status MemoryStore::save_seek(const SeekRecord& seek) {
    std::lock_guard lock(mutex_);
    seeks_[seek.id] = seek;
    return core::ok_status();
}

core::Status MemoryStore::delete_seek(std::string_view seek_id) {
    std::lock_guard lock(mutex_);
    auto it = seeks_.find(seek_id);
    if (it != seeks_.end()) {
        seeks_.erase(it);
    }
    return core::ok_status();
}

std::vector<SeekRecord> MemoryStore::seeks() {
    std::lock_guard lock(mutex_);
    std::vector<SeekRecord> all;
    for (const auto& [id, seek] : seeks_) {
        all.push_back(seek);
    }
    return all;
}

std::unique_ptr<Store> make_memory_store() {
    return std::make_unique<MemoryStore>();
}

}  // namespace server
