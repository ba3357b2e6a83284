// Where a connection's requests go (docs/architecture.md, "A move"): parsed and checked, then to
// the session's identity (hello, set_name, accounts), the lobby, or the game's room.
#include <variant>

#include <nlohmann/json.hpp>

#include "protocol/messages.h"
#include "protocol/requests.h"
#include "server/game/lobby.h"
#include "server/game/relay.h"
#include "server/game/room.h"
#include "server/game/room_directory.h"
#include "server/game/server_state.h"
#include "server/game/tournaments.h"
#include "server/guard.h"
#include "server/log.h"
#include "server/net/websocket_pool_job.h"
#include "server/net/websocket_session.h"

namespace server {

using protocol::ErrorCode;
using protocol::RequestType;

namespace {

// What a refusal of the request in `text` echoes: its `id` (null when it cannot be read) and the
// game it is about ("" when none). The request parser reads them, so they are read the same way
// whether the frame is handled or refused.
struct Echo {
    nlohmann::json id;
    std::string game_id;
};
Echo echo_of(const std::string& text) {
    return std::visit(
        [](auto&& parsed) {
            return Echo{std::move(parsed.id), std::move(parsed.game_id)};
        },
        protocol::parse_request(text));
}

}  // namespace

void WebSocketSession::on_text(const std::string& text) {
    if (!take_token()) {
        const auto echo = echo_of(text);
        enqueue(error_frame(ErrorCode::rate_limited, "too many messages; slow down", echo.id,
                            echo.game_id));
        return;
    }
    if (hello_pending_ || account_pending_ || lookup_pending_) {
        // Who the client is is changing, or a game is being looked up: what follows waits, so
        // requests are handled in order.
        if (held_.size() >= max_held_frames) {
            const auto echo = echo_of(text);
            enqueue(error_frame(ErrorCode::rate_limited,
                                lookup_pending_ && !hello_pending_ && !account_pending_
                                    ? "too many messages while a game is loaded; slow down"
                                    : "too many messages before the welcome; slow down",
                                echo.id, echo.game_id));
            return;
        }
        held_.push_back(text);
        return;
    }
    handle_text(text);
}

void WebSocketSession::release_held() {
    while (!hello_pending_ && !account_pending_ && !lookup_pending_ && !held_.empty()) {
        auto text = std::move(held_.front());
        held_.pop_front();
        handle_text(text);
    }
}

void WebSocketSession::handle_text(const std::string& text) {
    auto parsed = protocol::parse_request(text);
    if (auto* error = std::get_if<protocol::RequestError>(&parsed)) {
        component_logger("ws")->debug("client {}: {} ({})", id_,
                                      protocol::error_code_name(error->error.code),
                                      error->error.message);
        enqueue(error_frame(error->error, error->id, error->game_id));
        return;
    }
    on_request(std::get<protocol::Request>(std::move(parsed)), text);
}

void WebSocketSession::on_request(protocol::Request request, const std::string& text) {
    if (state_.stopping() && request.type != RequestType::ping) {
        // After server_restart nothing new starts: the client sends it again once reconnected.
        enqueue(error_frame(ErrorCode::server_restarting,
                            "the server is restarting: reconnect in a moment and send this again",
                            request.id, request.game_id));
        return;
    }
    if (request.type == RequestType::hello) {
        hello(request);
        return;
    }
    if (protocol::is_account_request(request.type) && player_) {
        account_request(request);
        return;
    }
    if (!player_) {
        enqueue(error_frame(ErrorCode::hello_required, "send hello first", request.id,
                            request.game_id));
        return;
    }
    if (request.type == RequestType::ping) {
        reply(protocol::pong_message(request.id));
    } else if (request.type == RequestType::set_name) {
        set_name(request);
    } else if (protocol::is_lobby_request(request.type)) {
        lobby_request(std::move(request));
    } else if (protocol::is_tournament_request(request.type)) {
        state_.tournaments().request(actor(), request);
    } else {
        room_request(std::move(request), text);
    }
}

void WebSocketSession::lobby_request(protocol::Request request) {
    if (!needs_asker_facts(state_, actor(), request)) {
        state_.lobby().post_request(actor(), std::move(request));
        return;
    }
    // The asker's ratings (and, in cluster mode, games) are read on the pool; later frames wait,
    // so the lobby gets this connection's requests in the order they came.
    const auto id = request.id;
    pool_job(
        &WebSocketSession::lookup_pending_, id,
        [&state = state_, asker = actor()] { return read_asker_facts(state, asker); },
        [this, request = std::move(request)](core::Expected<AskerFacts> facts) mutable {
            if (!facts) {
                read_failed("lobby: " + facts.error(),
                            "the server could not read your ratings; try again", request.id);
                return;
            }
            state_.lobby().post_request(actor(), std::move(request), std::move(*facts));
        });
}

void WebSocketSession::room_request(protocol::Request request, const std::string& text) {
    // A game this connection watches (a player's own game once its page is open): its room.
    if (auto it = watching_.find(request.game_id); it != watching_.end()) {
        auto watched = it->second.lock();
        if (watched && !watched->lost()) {
            watched->post_request(actor(), std::move(request));
            return;
        }
        watching_.erase(it);  // cluster mode: a room that lost its lease is looked up again
    }
    // Cluster mode: a game another node pushes to this connection goes on there.
    if (auto it = watching_elsewhere_.find(request.game_id); it != watching_elsewhere_.end()) {
        relay_request(it->second, request, text);
        return;
    }
    // Where the lookup's outcome sends the request (a lambda, so that it shares this function's
    // access to the session).
    const auto route = [](WebSocketSession& self, core::Expected<GameLookup> game,
                          const Actor& asker, protocol::Request request, const std::string& text) {
        if (!game && game.error().rfind(owned_elsewhere_prefix, 0) == 0) {
            // Cluster mode: another node owns the game; the request goes there.
            const auto owner = owner_named_in(game.error());
            if (!owner.empty() && self.state_.relay()) {
                self.relay_request(owner, request, text);
            } else {
                self.enqueue(error_frame(ErrorCode::server_restarting, lost_room_text, request.id,
                                         request.game_id));
            }
        } else if (!game) {
            self.read_failed("game " + request.game_id + ": " + game.error(),
                             "the server could not load this game; try again", request.id,
                             request.game_id);
        } else if (game->room) {
            game->room->post_request(asker, std::move(request));
        } else if (!game->answered) {
            self.enqueue(error_frame(ErrorCode::no_such_game, "there is no such game", request.id,
                                     request.game_id));
        }
        // Else a finished game not in memory, and no seat of ours in it: answered from the store
        // on the pool, before this ran.
    };
    // In memory (or known to be no game): routed at once. Else the store is read on the blocking
    // pool, and the connection's later frames wait for the answer (lookup_pending_).
    if (auto known = state_.rooms().known(request.game_id)) {
        route(*this, std::move(*known), actor(), std::move(request), text);
        return;
    }
    auto asker = actor();
    const bool queued = state_.rooms().lookup(
        asker, request, ws_.get_executor(),
        [self = shared_from_this(), route, asker, request,
         text](core::Expected<GameLookup> game) mutable {
            guarded(
                "ws", [&] { return "client " + std::to_string(self->id_) + ": lookup"; },
                [&] {
                    self->lookup_pending_ = false;
                    if (self->left_) {
                        return;  // closed meanwhile: the rooms were told it is gone
                    }
                    route(*self, std::move(game), asker, std::move(request), text);
                    self->release_held();
                });
        });
    if (!queued) {
        // The pool's queue is full: the answer a busy room gives (rate_limited: the client may
        // send it again in a moment), with the game it was about.
        enqueue(error_frame(ErrorCode::rate_limited, std::string(pool_busy_text), request.id,
                            request.game_id));
        return;
    }
    lookup_pending_ = true;
}

void WebSocketSession::relay_request(const std::string& owner, const protocol::Request& request,
                                     const std::string& text) {
    state_.relay()->forward(owner, shared_from_this(), actor(), request, text);
}

void WebSocketSession::read_failed(const std::string& error, const std::string& message,
                                   const nlohmann::json& id, std::string_view game_id) {
    component_logger("ws")->error("client {}: {}", id_, error);
    enqueue(error_frame(ErrorCode::internal_error, message, id, game_id));
}

Actor WebSocketSession::actor() {
    return Actor{weak_from_this(),     id_,     player_->id, player_->name,
                 account_.has_value(), lag_ms_, ip_,         received_};
}
}  // namespace server
