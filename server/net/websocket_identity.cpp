// Who a connection speaks for: hello (a stored token, or a new guest), the welcome, and the
// display name. Accounts (register, login, logout, passwords, admins) are in
// websocket_accounts.cpp.
#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "protocol/version.h"
#include "server/game/lobby.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"
#include "server/net/websocket_pool_job.h"
#include "server/net/websocket_session.h"

namespace server {

using protocol::ErrorCode;
namespace asio = boost::asio;
namespace websocket = boost::beast::websocket;

void WebSocketSession::hello(const protocol::Request& request) {
    if (request.protocol != protocol::protocol_version) {
        enqueue(error_frame(ErrorCode::unsupported_protocol, "this server speaks protocol 1",
                            request.id));
        request_close(websocket::close_code::policy_error);
        return;
    }
    if (player_ || hello_pending_) {
        enqueue(error_frame(ErrorCode::bad_field, "hello was sent already", request.id));
        return;
    }
    if (!request.token) {
        hello_as(request, std::nullopt, std::nullopt);
        return;
    }
    // The token's player and account are read on the pool; later frames wait (hello_pending_).
    using Found = std::pair<std::optional<PlayerRecord>, std::optional<AccountRecord>>;
    pool_job(
        &WebSocketSession::hello_pending_, request.id,
        [&state = state_, token = *request.token]() -> core::Expected<Found> {
            auto known = state.identities().restore(token);
            if (!known) {
                return core::make_error(known.error());
            }
            if (!*known) {
                return Found{};
            }
            auto account = state.store().account((*known)->id);
            if (!account) {
                return core::make_error(account.error());
            }
            return Found{std::move(*known), std::move(*account)};
        },
        [this, request](const core::Expected<Found>& found) {
            if (!found) {
                // A token whose player cannot be read is not unknown: the client keeps it and
                // tries again.
                read_failed("hello: " + found.error(),
                            "the server could not read your account; try again", request.id);
                return;
            }
            if (!found->first) {
                enqueue(error_frame(ErrorCode::bad_token, "unknown token; you are a new guest",
                                    request.id));
            }
            hello_as(request, found->first, found->second);
        });
}

void WebSocketSession::hello_as(const protocol::Request& request, std::optional<PlayerRecord> known,
                                std::optional<AccountRecord> account) {
    if (known) {
        token_hash_ = sha256_hex(*request.token);
    }
    if (!known && !state_.address_limits().try_new_guest(ip_)) {
        enqueue(error_frame(
            ErrorCode::rate_limited,
            "too many new guests from your address in the last hour; try again later", request.id));
        return;
    }
    hello_pending_ = true;
    if (account) {
        // An account keeps its username as its name (closing one revokes its tokens).
        account_ = protocol::AccountInfo{account->username, account->admin};
        welcome(core::ok_status(), {known->id, known->name}, *request.token, request.id);
        return;
    }
    if (!known) {
        auto issued = Identities::new_guest(request.name);
        token_hash_ = issued.record.token_hash;
        protocol::PlayerInfo player{issued.record.id, issued.record.name};
        store_then({InsertPlayer{issued.record}},
                   [this, player, token = issued.token, id = request.id](core::Status stored) {
                       welcome(stored, player, token, id);
                   });
        return;
    }
    protocol::PlayerInfo player{known->id, known->name};
    if (request.name && *request.name != player.name) {
        player.name = *request.name;
        store_then({RenamePlayer{player.id, player.name}},
                   [this, player, token = *request.token, id = request.id](core::Status stored) {
                       welcome(stored, player, token, id);
                   });
        return;
    }
    welcome(core::ok_status(), player, *request.token, request.id);
}

void WebSocketSession::welcome(const core::Status& stored, const protocol::PlayerInfo& player,
                               const std::string& token, const nlohmann::json& id) {
    hello_pending_ = false;
    if (!stored) {
        component_logger("ws")->error("client {}: cannot store player {}: {}", id_, player.id,
                                      stored.error());
        enqueue(error_frame(ErrorCode::internal_error, "cannot create a player", id));
        return;
    }
    player_ = player;
    component_logger("ws")->info("client {}: player {} \"{}\"{}", id_, player_->id, player_->name,
                                 account_ ? " (account)" : "");
    // (hello_pending_ holds later frames until the welcome is sent.)
    with_unfinished_games(&WebSocketSession::hello_pending_, player_->id,
                          [this, token, id](const std::vector<std::string>& games) {
                              reply(protocol::welcome_message(
                                  *player_, token, games, id,
                                  account_ ? protocol::account_json(*account_) : nullptr));
                              state_.lobby().post_player_connected(actor());
                          });
}

void WebSocketSession::set_name(const protocol::Request& request) {
    if (account_) {
        enqueue(error_frame(ErrorCode::forbidden, "an account's name is its username", request.id));
        return;
    }
    // Later frames wait for the write (a seek created next carries the new name).
    account_pending_ = true;
    store_then({RenamePlayer{player_->id, *request.name}},
               [this, name = *request.name, id = request.id](core::Status renamed) {
                   account_pending_ = false;
                   if (!renamed) {
                       enqueue(error_frame(ErrorCode::internal_error, renamed.error(), id));
                       return;
                   }
                   player_->name = name;
                   reply(protocol::player_message(*player_, id));
               });
}

// Commits `batch` and runs `then` with the outcome on this session's strand (the I/O thread never
// waits for the disk).
void WebSocketSession::store_then(WriteBatch batch, std::function<void(core::Status)> then) {
    state_.store().commit(std::move(batch), [self = shared_from_this(),
                                             then = std::move(then)](core::Status status) mutable {
        asio::post(self->ws_.get_executor(),
                   [self, then = std::move(then), status = std::move(status)]() mutable {
                       guarded(
                           "ws", [&] { return "client " + std::to_string(self->id_); },
                           [&] {
                               then(std::move(status));
                               self->release_held();
                           });
                   });
    });
}

}  // namespace server
