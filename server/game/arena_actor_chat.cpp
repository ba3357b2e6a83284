// An arena's chat (docs/tournaments.md, "Chat"): who may say a line and how often — the limits of
// a game's chat (room_chat.cpp) — and the line told to every watcher once it is stored.
#include "server/game/arena_actor.h"

#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "protocol/tournament_messages.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/limits.h"

namespace server {

using protocol::ErrorCode;

void ArenaActor::post_say(Actor actor, std::string text, nlohmann::json request_id) {
    boost::asio::post(strand_,
                      [self = shared_from_this(), actor = std::move(actor), text = std::move(text),
                       request_id = std::move(request_id)]() mutable {
                          guarded(
                              "tournament", [&] { return "tournament " + self->id() + ": chat"; },
                              [&] { self->say(actor, std::move(text), request_id); });
                      });
}

std::optional<protocol::ProtocolError> ArenaActor::may_chat(const Actor& actor) {
    if (state_.account_news().muted(actor.player_id)) {
        return protocol::ProtocolError{ErrorCode::muted, "an admin has muted your chat"};
    }
    auto& times = chat_times_[actor.player_id];
    const auto t = std::chrono::steady_clock::now();
    while (!times.empty() && t - times.front() > chat_window) {
        times.pop_front();
    }
    if (times.size() >= static_cast<std::size_t>(chat_burst)) {
        return protocol::ProtocolError{ErrorCode::rate_limited,
                                       "too many chat messages; wait a little"};
    }
    if (!actor.ip.empty() && !state_.address_limits().try_chat(actor.ip)) {
        return protocol::ProtocolError{ErrorCode::rate_limited,
                                       "too many chat messages from your address; wait a little"};
    }
    times.push_back(t);
    return std::nullopt;
}

void ArenaActor::say(const Actor& actor, std::string text, const nlohmann::json& request_id) {
    if (auto refused = may_chat(actor)) {
        actor.send(error_frame(*refused, request_id));
        return;
    }
    handle(Ask{actor, tournament::arena_input::Say{actor.player_id, actor.name, std::move(text)},
               [actor, request_id](std::optional<protocol::ProtocolError> error) {
                   actor.send(error ? error_frame(*error, request_id)
                                    : make_frame(protocol::ack_message(request_id)));
               }});
}

void ArenaActor::send_said(const std::vector<tournament::ArenaEvent>& events) {
    for (const auto& event : events) {
        if (const auto* said = std::get_if<tournament::arena_event::Said>(&event)) {
            send_to_watchers(make_frame(protocol::tournament_chat_message(
                record_.id, arena_chat_line({said->player, said->name, said->text, said->at}))));
        }
    }
}

}  // namespace server
