// MemoryStore: the account, moderation and rating reads and the filtered game history, with the
// same meaning as the SQLite store's (sqlite_account_reads.cpp).
#include <algorithm>

#include <nlohmann/json.hpp>

#include "server/store/memory_store.h"
#include "server/store/username_key.h"

namespace server {

namespace {

// "win", "draw", "loss" for the player in `seat`, or "" for a game without a winner that was no
// draw (aborted) or a result that cannot be read.
std::string outcome_for(const GameRecord& game, int seat) {
    const auto result = nlohmann::json::parse(game.result_json, nullptr, false);
    if (!result.is_object()) {
        return "";
    }
    const auto winner = result.value("winner", nlohmann::json());
    if (winner.is_null()) {
        return result.value("reason", "") == "aborted" ? "" : "draw";
    }
    if (!winner.is_string()) {
        return "";
    }
    const auto& name = winner.get_ref<const std::string&>();
    const int winner_seat = name == "white" || name == "player0" ? 0 : 1;
    return winner_seat == seat ? "win" : "loss";
}

}  // namespace

core::Expected<std::optional<AccountRecord>> MemoryStore::account(std::string_view player_id) {
    std::lock_guard lock(mutex_);
    auto it = accounts_.find(player_id);
    return it == accounts_.end() ? std::nullopt : std::optional<AccountRecord>(it->second);
}

core::Expected<std::optional<AccountRecord>> MemoryStore::account_by_username(
    std::string_view username) {
    std::lock_guard lock(mutex_);
    const auto key = username_key(username);
    for (const auto& [id, account] : accounts_) {
        if (username_key(account.username) == key) {
            return account;
        }
    }
    return std::nullopt;
}

core::Expected<Moderation> MemoryStore::moderation(std::string_view player_id) {
    std::lock_guard lock(mutex_);
    auto it = moderation_.find(player_id);
    return it == moderation_.end() ? Moderation{} : it->second;
}

core::Expected<std::vector<std::string>> MemoryStore::muted_players() {
    std::lock_guard lock(mutex_);
    std::vector<std::string> ids;
    for (const auto& [id, flags] : moderation_) {
        if (flags.muted) {
            ids.push_back(id);
        }
    }
    return ids;
}

core::Expected<std::vector<RatingRecord>> MemoryStore::ratings_of(std::string_view player_id) {
    std::lock_guard lock(mutex_);
    std::vector<RatingRecord> rows;
    for (const auto& [key, row] : ratings_) {
        if (key.first == player_id) {
            rows.push_back(row);
        }
    }
    return rows;
}

core::Expected<std::vector<GameRating>> MemoryStore::game_ratings(std::string_view game_id) {
    std::lock_guard lock(mutex_);
    std::vector<GameRating> rows;
    for (const auto& row : game_ratings_) {
        if (row.game_id == game_id) {
            rows.push_back(row);
        }
    }
    std::sort(rows.begin(), rows.end(),
              [](const GameRating& a, const GameRating& b) { return a.seat < b.seat; });
    return rows;
}

core::Expected<std::vector<GameRating>> MemoryStore::rating_history(std::string_view player_id) {
    std::lock_guard lock(mutex_);
    std::vector<GameRating> rows;
    for (const auto& row : game_ratings_) {
        if (row.player_id == player_id) {
            rows.push_back(row);
        }
    }
    std::stable_sort(rows.begin(), rows.end(),
                     [](const GameRating& a, const GameRating& b) { return a.at < b.at; });
    return rows;
}

core::Expected<std::vector<LeaderboardRow>> MemoryStore::leaderboard(std::string_view variant,
                                                                     double max_rd,
                                                                     std::int64_t active_since,
                                                                     int limit) {
    std::lock_guard lock(mutex_);
    std::vector<LeaderboardRow> rows;
    for (const auto& [key, row] : ratings_) {
        const auto flags = moderation_.find(key.first);
        const bool closed = flags != moderation_.end() && flags->second.closed;
        if (key.second == variant && row.value.rd <= max_rd && row.last_played >= active_since &&
            !closed) {
            auto player = players_.find(key.first);
            rows.push_back({key.first, player == players_.end() ? "" : player->second.name, row});
        }
    }
    std::sort(rows.begin(), rows.end(), [](const LeaderboardRow& a, const LeaderboardRow& b) {
        if (a.rating.value.rating != b.rating.value.rating) {
            return a.rating.value.rating > b.rating.value.rating;
        }
        return a.player_id < b.player_id;
    });
    if (static_cast<int>(rows.size()) > std::max(limit, 0)) {
        rows.resize(static_cast<std::size_t>(std::max(limit, 0)));
    }
    return rows;
}

std::vector<std::pair<const GameRecord*, int>> MemoryStore::visible_games(
    std::string_view player_id, std::string_view viewer_id) {
    std::vector<std::pair<const StoredGame*, int>> found;
    for (const auto& [id, game] : games_) {
        const auto& seats = game.record.seats;
        const auto mine = std::find(seats.begin(), seats.end(), player_id);
        const bool viewer_sat = std::find(seats.begin(), seats.end(), viewer_id) != seats.end();
        if (game.record.status == "finished" && mine != seats.end() &&
            (!game.record.is_private || viewer_sat)) {
            found.emplace_back(&game, static_cast<int>(mine - seats.begin()));
        }
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
        if (a.first->record.finished_at != b.first->record.finished_at) {
            return a.first->record.finished_at > b.first->record.finished_at;
        }
        return a.first->order > b.first->order;
    });
    std::vector<std::pair<const GameRecord*, int>> games;
    for (const auto& [game, seat] : found) {
        games.emplace_back(&game->record, seat);
    }
    return games;
}

core::Expected<std::vector<GameRecord>> MemoryStore::find_games(const GameQuery& q) {
    std::lock_guard lock(mutex_);
    std::vector<GameRecord> page;
    int skipped = 0;
    for (const auto& [game, seat] : visible_games(q.player_id, q.viewer_id)) {
        if ((!q.variant.empty() && game->variant != q.variant) ||
            (q.rated && game->rated != *q.rated) ||
            (!q.result.empty() && outcome_for(*game, seat) != q.result)) {
            continue;
        }
        if (skipped++ < q.offset) {
            continue;
        }
        if (static_cast<int>(page.size()) >= q.limit) {
            break;
        }
        page.push_back(*game);
    }
    return page;
}

core::Expected<GameTally> MemoryStore::tally(std::string_view player_id,
                                             std::string_view viewer_id) {
    std::lock_guard lock(mutex_);
    GameTally counts;
    for (const auto& [game, seat] : visible_games(player_id, viewer_id)) {
        ++counts.games;
        const auto outcome = outcome_for(*game, seat);
        counts.wins += outcome == "win";
        counts.draws += outcome == "draw";
        counts.losses += outcome == "loss";
    }
    return counts;
}

}  // namespace server
