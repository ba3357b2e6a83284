// An arena's chat (docs/tournaments.md, "Chat"): a line within a game chat's limits
// (chat_limiter.h) goes to the machine, and to every watcher once it is stored.
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

void ArenaActor::say(const Actor& actor, std::string text, const nlohmann::json& request_id) {
    if (auto refused = chat_limiter_.try_line(state_, actor)) {
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
