#pragma once
// What a lobby subscriber knows (issue 24): the last `lobby` it received, then every delta after
// it applied in order — seek_added, seek_removed, game_added, game_removed, game_changed.
#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "server/test_support.h"

namespace test {

struct LobbyView {
    std::vector<json> seeks;  // oldest first
    std::vector<json> games;  // as listed: the first page, then the games added since
    int full_lists = 0;       // `lobby` frames received
    int game_changed = 0;     // game_changed frames after the last `lobby`

    bool has_seek(const std::string& seek_id) const;
    bool has_game(const std::string& game_id) const;
    // The game's summary as the view has it (null if not listed).
    json game(const std::string& game_id) const;
};

// The view built from everything `client` has received so far.
LobbyView lobby_view(const WsClient& client);
// Reads `client`'s frames until its view satisfies `pred`, and returns that view; fails the test
// (returning the last view) after `timeout`.
LobbyView wait_lobby(WsClient& client, const std::function<bool(const LobbyView&)>& pred,
                     std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));

}  // namespace test
