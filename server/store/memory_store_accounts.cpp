// MemoryStore: the account, session, moderation and rating writes, with the same meaning as the
// SQLite store's (sqlite_account_writes.cpp).
#include "server/store/memory_store.h"
#include "server/store/username_key.h"

namespace server {

core::Status MemoryStore::apply_account(const CreateAccount& w, Undo& undo) {
    const auto& a = w.account;
    if (!players_.count(a.player_id)) {
        return core::make_error("create_account: no such player " + a.player_id);
    }
    if (accounts_.count(a.player_id)) {
        return core::make_error("create_account: player " + a.player_id + " is an account already");
    }
    const auto key = username_key(a.username);
    for (const auto& [id, account] : accounts_) {
        if (username_key(account.username) == key) {
            return core::make_error("create_account: name taken: " + a.username);
        }
    }
    accounts_[a.player_id] = a;
    undo.push_back([this, id = a.player_id] { accounts_.erase(id); });
    return core::ok_status();
}

core::Status MemoryStore::apply_account(const SetPassword& w, Undo& undo) {
    auto it = accounts_.find(w.player_id);
    if (it == accounts_.end()) {
        return core::make_error("set_password: no account " + w.player_id);
    }
    undo.push_back([&account = it->second, old = it->second] { account = old; });
    it->second.password_hash = w.password_hash;
    return core::ok_status();
}

core::Status MemoryStore::apply_account(const SetAdmin& w, Undo& undo) {
    auto it = accounts_.find(w.player_id);
    if (it == accounts_.end()) {
        return core::make_error("set_admin: no account " + w.player_id);
    }
    undo.push_back([&account = it->second, old = it->second] { account = old; });
    it->second.admin = w.admin;
    return core::ok_status();
}

core::Status MemoryStore::apply_account(const SetModeration& w, Undo& undo) {
    if (!players_.count(w.player_id)) {
        return core::make_error("set_moderation: no player " + w.player_id);
    }
    undo.push_back(
        [this, id = w.player_id, old = moderation_[w.player_id]] { moderation_[id] = old; });
    auto& flags = moderation_[w.player_id];
    flags.muted = w.muted.value_or(flags.muted);
    flags.closed = w.closed.value_or(flags.closed);
    return core::ok_status();
}

core::Status MemoryStore::apply_account(const AddSession& w, Undo& undo) {
    if (!players_.count(w.player_id)) {
        return core::make_error("add_session: no such player " + w.player_id);
    }
    if (sessions_.count(w.token_hash)) {
        return core::make_error("add_session: the token is in use");
    }
    sessions_[w.token_hash] = w.player_id;
    undo.push_back([this, token = w.token_hash] { sessions_.erase(token); });
    return core::ok_status();
}

core::Status MemoryStore::apply_account(const RevokeSession& w, Undo& undo) {
    if (auto it = sessions_.find(w.token_hash); it != sessions_.end()) {
        undo.push_back([this, old = *it] { sessions_.insert(old); });
        sessions_.erase(it);
    }
    return core::ok_status();
}

core::Status MemoryStore::apply_account(const RevokeSessions& w, Undo& undo) {
    for (auto it = sessions_.begin(); it != sessions_.end();) {
        if (it->second == w.player_id && it->first != w.keep_token_hash) {
            undo.push_back([this, old = *it] { sessions_.insert(old); });
            it = sessions_.erase(it);
        } else {
            ++it;
        }
    }
    return core::ok_status();
}

core::Status MemoryStore::apply_account(const RateGame& w, Undo& undo) {
    std::vector<std::optional<RatingRecord>> current;
    for (const auto& player : w.players) {
        if (!players_.count(player)) {
            return core::make_error("rate_game: no such player " + player);
        }
        auto it = ratings_.find({player, w.variant});
        current.push_back(it == ratings_.end() ? std::nullopt
                                               : std::optional<RatingRecord>(it->second));
    }
    for (const auto& row : game_ratings_) {
        if (row.game_id == w.game_id) {
            return core::make_error("rate_game: game " + w.game_id + " is rated already");
        }
    }
    const auto rated = w.rate(current, w.at);
    if (rated.size() != w.players.size()) {
        return core::make_error("rate_game: a rating for each seat is needed");
    }
    for (std::size_t seat = 0; seat < rated.size(); ++seat) {
        const std::pair<std::string, std::string> key{w.players[seat], w.variant};
        auto it = ratings_.find(key);
        if (it == ratings_.end()) {
            undo.push_back([this, key] { ratings_.erase(key); });
        } else {
            undo.push_back([this, key, old = it->second] { ratings_[key] = old; });
        }
        auto& row = ratings_[key];
        row.player_id = key.first;
        row.variant = key.second;
        row.value = rated[seat].after;
        row.games += 1;
        row.last_played = w.at;
        game_ratings_.push_back(GameRating{w.game_id, static_cast<int>(seat), key.first, w.variant,
                                           rated[seat].before, rated[seat].after, w.at});
        undo.push_back([this] { game_ratings_.pop_back(); });
    }
    return core::ok_status();
}

}  // namespace server
