#include "server/lobby_view.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace test {

namespace {

bool is_lobby_message(const json& m) {
    static const std::vector<std::string> types = {"lobby",      "seek_added",   "seek_removed",
                                                   "game_added", "game_removed", "game_changed"};
    const auto type = m.value("type", "");
    return std::find(types.begin(), types.end(), type) != types.end();
}

void erase_where(std::vector<json>& list, const char* key, const json& value) {
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](const json& item) { return item[key] == value; }),
               list.end());
}

}  // namespace

bool LobbyView::has_seek(const std::string& seek_id) const {
    return std::any_of(seeks.begin(), seeks.end(),
                       [&](const json& s) { return s["seek_id"] == seek_id; });
}

bool LobbyView::has_game(const std::string& game_id) const {
    return !game(game_id).is_null();
}

json LobbyView::game(const std::string& game_id) const {
    for (const auto& g : games) {
        if (g["game_id"] == game_id) {
            return g;
        }
    }
    return nullptr;
}

LobbyView lobby_view(const WsClient& client) {
    LobbyView view;
    for (const auto& m : client.history()) {
        if (!is_lobby_message(m)) {
            continue;
        }
        const auto type = m["type"].get<std::string>();
        if (type == "lobby") {
            view.seeks = m["seeks"].get<std::vector<json>>();
            view.games = m["games"].get<std::vector<json>>();
            ++view.full_lists;
            view.game_changed = 0;
            continue;
        }
        if (type == "seek_added") {
            view.seeks.push_back(m["seek"]);
        } else if (type == "seek_removed") {
            erase_where(view.seeks, "seek_id", m["seek_id"]);
        } else if (type == "game_added") {
            view.games.insert(view.games.begin(), m["game"]);
        } else if (type == "game_removed") {
            erase_where(view.games, "game_id", m["game_id"]);
        } else if (type == "game_changed") {
            ++view.game_changed;
            for (const auto& changed : m["games"]) {
                for (auto& g : view.games) {
                    if (g["game_id"] == changed["game_id"]) {
                        g = changed;
                    }
                }
            }
        }
    }
    return view;
}

LobbyView wait_lobby(WsClient& client, const std::function<bool(const LobbyView&)>& pred,
                     std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        auto view = lobby_view(client);
        if (pred(view)) {
            return view;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left <= std::chrono::milliseconds(0)) {
            ADD_FAILURE() << "the lobby view never satisfied the condition";
            return view;
        }
        if (client.wait_for(is_lobby_message, left).is_null()) {
            ADD_FAILURE() << "no lobby message came";
            return lobby_view(client);
        }
    }
}

}  // namespace test
