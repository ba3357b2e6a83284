#pragma once
// Who may say a chat line now, in a game's chat or a tournament's (room_chat.cpp,
// arena_actor_chat.cpp): not a muted account, at most chat_burst lines a player in any
// chat_window in this one chat, and the address's share of all chats (AddressLimits::try_chat).
// Used on its owner's strand only.
#include <chrono>
#include <deque>
#include <map>
#include <optional>
#include <string>

#include "protocol/errors.h"
#include "server/game/client.h"

namespace server {

class ServerState;

class ChatLimiter {
public:
    // Nothing when `actor` may say a line now (the line is counted), else why not.
    std::optional<protocol::ProtocolError> try_line(ServerState& state, const Actor& actor);

private:
    std::map<std::string, std::deque<std::chrono::steady_clock::time_point>> times_;
};

}  // namespace server
