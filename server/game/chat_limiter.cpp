#include "server/game/chat_limiter.h"

#include "server/game/server_state.h"
#include "server/limits.h"

namespace server {

using protocol::ErrorCode;

std::optional<protocol::ProtocolError> ChatLimiter::try_line(ServerState& state,
                                                             const Actor& actor) {
    if (state.account_news().muted(actor.player_id)) {
        return protocol::ProtocolError{ErrorCode::muted, "an admin has muted your chat"};
    }
    auto& times = times_[actor.player_id];
    const auto t = std::chrono::steady_clock::now();
    while (!times.empty() && t - times.front() > chat_window) {
        times.pop_front();
    }
    if (times.size() >= static_cast<std::size_t>(chat_burst)) {
        return protocol::ProtocolError{ErrorCode::rate_limited,
                                       "too many chat messages; wait a little"};
    }
    if (!actor.ip.empty() && !state.address_limits().try_chat(actor.ip)) {
        return protocol::ProtocolError{ErrorCode::rate_limited,
                                       "too many chat messages from your address; wait a little"};
    }
    times.push_back(t);
    return std::nullopt;
}

}  // namespace server
