// Where a connection's requests go (docs/architecture.md, "A move"): parsed and checked, then to
// the session's identity (hello, set_name, accounts), the lobby, or the game's room.
#include <variant>

#include <nlohmann/json.hpp>

#include "protocol/messages.h"
#include "protocol/requests.h"
#include "server/game/lobby.h"
#include "server/game/relay.h"
#include "server/game/room.h"
#include "server/game/server_state.h"
#include "server/log.h"
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
    if (hello_pending_ || account_pending_) {
        // Who the client is is changing: what follows waits, so requests are handled in order.
        if (held_.size() >= max_held_frames) {
            const auto echo = echo_of(text);
            enqueue(error_frame(ErrorCode::rate_limited,
                                "too many messages before the welcome; slow down", echo.id,
                                echo.game_id));
            return;
        }
        held_.push_back(text);
        return;
    }
    handle_text(text);
}

void WebSocketSession::release_held() {
    while (!hello_pending_ && !account_pending_ && !held_.empty()) {
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
        state_.lobby().post_request(actor(), std::move(request));
    } else {
        room_request(std::move(request), text);
    }
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
    auto game = state_.game_for(request.game_id, player_->id);
    if (!game && game.error().rfind(owned_elsewhere_prefix, 0) == 0) {
        // Cluster mode: another node owns the game; the request goes there.
        if (const auto owner = owner_named_in(game.error()); !owner.empty() && state_.relay()) {
            relay_request(owner, request, text);
        } else {
            enqueue(error_frame(ErrorCode::server_restarting, lost_room_text, request.id,
                                request.game_id));
        }
    } else if (!game) {
        read_failed("game " + request.game_id + ": " + game.error(),
                    "the server could not load this game; try again", request.id, request.game_id);
    } else if (game->room) {
        game->room->post_request(actor(), std::move(request));
    } else if (game->finished) {
        // A finished game not in memory, and no seat of ours in it: answered from the store.
        state_.answer_finished(*game->finished, actor(), request);
    } else {
        enqueue(error_frame(ErrorCode::no_such_game, "there is no such game", request.id,
                            request.game_id));
    }
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
