// A connection's account requests (issue 16): register, login, logout, change_password and the
// admin requests. Password hashing and checking run on the password worker (ServerState), never on
// an I/O thread, a room strand or the store's writer; the session continues on its own strand
// once the worker is done, and acts on a change only once the store has committed it.
#include <boost/asio/post.hpp>

#include "server/game/identity.h"
#include "server/game/lobby.h"
#include "server/game/relay.h"
#include "server/game/room.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"
#include "server/net/websocket_session.h"
#include "server/store/username_key.h"

namespace server {

namespace asio = boost::asio;
using protocol::ErrorCode;
using protocol::RequestType;

void WebSocketSession::reply_error(ErrorCode code, const std::string& message,
                                   const nlohmann::json& id) {
    enqueue(error_frame(code, message, id));
}

void WebSocketSession::account_request(const protocol::Request& request) {
    if (account_pending_) {
        reply_error(ErrorCode::rate_limited, "one account request at a time", request.id);
        return;
    }
    switch (request.type) {
        case RequestType::register_account:
            register_account(request);
            break;
        case RequestType::login:
            login(request);
            break;
        case RequestType::logout:
            logout(request);
            break;
        case RequestType::change_password:
            change_password(request);
            break;
        default:
            admin_request(request);
            break;
    }
}

template <class Work, class Then>
bool WebSocketSession::password_job(const nlohmann::json& id, Work work, Then then) {
    auto self = shared_from_this();
    const bool queued =
        state_.passwords().submit([self, work = std::move(work), then = std::move(then)]() mutable {
            auto result = work();
            asio::post(self->ws_.get_executor(), [self, then = std::move(then),
                                                  result = std::move(result)]() mutable {
                guarded(
                    "ws", [&] { return "client " + std::to_string(self->id_) + ": account"; },
                    [&] {
                        self->account_pending_ = false;
                        then(std::move(result));
                        self->release_held();
                    });
            });
        });
    if (!queued) {
        reply_error(ErrorCode::rate_limited, "the server is busy checking passwords; try again",
                    id);
        return false;
    }
    account_pending_ = true;
    return true;
}

void WebSocketSession::register_account(const protocol::Request& request) {
    if (account_) {
        reply_error(ErrorCode::already_registered, "you are registered already; log out first",
                    request.id);
        return;
    }
    if (!state_.login_limiter().try_attempt(ip_, "")) {
        reply_error(ErrorCode::rate_limited, "too many attempts; wait a few minutes", request.id);
        return;
    }
    auto taken = state_.store().account_by_username(request.username);
    if (!taken) {
        read_failed("register: " + taken.error(),
                    "the server could not check the username; try again", request.id);
        return;
    }
    if (*taken) {
        reply_error(ErrorCode::name_taken, "this username is taken", request.id);
        return;
    }
    password_job(
        request.id,
        [password = request.password, cost = state_.passwords().cost()] {
            return hash_password(password, cost);
        },
        [this, username = request.username, id = request.id](core::Expected<std::string> hashed) {
            if (!hashed) {
                component_logger("ws")->error("client {}: {}", id_, hashed.error());
                reply_error(ErrorCode::internal_error, "the password could not be hashed", id);
                return;
            }
            finish_register(username, *hashed, id);
        });
}

// The guest becomes an account: same player id (its games and seats stay), its username as its
// name, and a new token instead of the guest's (anyone holding that one loses it).
void WebSocketSession::finish_register(const std::string& username,
                                       const std::string& password_hash, const nlohmann::json& id) {
    if (!player_ || account_) {
        reply_error(ErrorCode::already_registered, "this connection changed identity", id);
        return;
    }
    const auto token = new_token();
    const auto token_hash = sha256_hex(token);
    const auto player_id = player_->id;
    const auto now = unix_now();
    account_pending_ = true;
    store_then({CreateAccount{{player_id, username, password_hash, false, now}},
                RenamePlayer{player_id, username}, RevokeSessions{player_id, ""},
                AddSession{token_hash, player_id, now}},
               [this, username, token, token_hash, player_id, id](core::Status stored) {
                   account_pending_ = false;
                   if (!stored) {
                       const auto other = state_.store().account_by_username(username);
                       if (other && *other && (*other)->player_id != player_id) {
                           reply_error(ErrorCode::name_taken, "this username is taken", id);
                       } else {
                           component_logger("ws")->error("client {}: register: {}", id_,
                                                         stored.error());
                           reply_error(ErrorCode::internal_error, "could not register", id);
                       }
                       return;
                   }
                   component_logger("ws")->info("client {}: player {} registered as {}", id_,
                                                player_id, username);
                   take_identity({player_id, username}, protocol::AccountInfo{username, false},
                                 token_hash);
                   reply(protocol::signed_in_message(*player_, token, *account_,
                                                     state_.unfinished_games_of(player_id), id));
                   // The guest's other connections held a token that is gone now.
                   state_.sign_out(player_id, id_, "registered");
               });
}

void WebSocketSession::login(const protocol::Request& request) {
    const auto key = username_key(request.username);
    if (!state_.login_limiter().try_attempt(ip_, key)) {
        reply_error(ErrorCode::rate_limited, "too many attempts; wait a few minutes", request.id);
        return;
    }
    auto found = state_.store().account_by_username(request.username);
    if (!found) {
        read_failed("login: " + found.error(), "the server could not read the account; try again",
                    request.id);
        return;
    }
    auto account = std::move(*found);
    password_job(
        request.id,
        [account, password = request.password, cost = state_.passwords().cost()] {
            // An unknown username is checked against a decoy: the same work, the same answer.
            const bool ok =
                verify_password(account ? account->password_hash : decoy_hash(cost), password) &&
                account.has_value();
            std::optional<std::string> rehash;
            if (ok && needs_rehash(account->password_hash, cost)) {
                if (auto fresh = hash_password(password, cost)) {
                    rehash = std::move(*fresh);
                }
            }
            return std::make_pair(ok, std::move(rehash));
        },
        [this, key, account, id = request.id](std::pair<bool, std::optional<std::string>> checked) {
            if (!checked.first) {
                state_.login_limiter().failed(ip_, key);
                reply_error(ErrorCode::bad_credentials, "wrong username or password", id);
                return;
            }
            state_.login_limiter().succeeded(ip_, key);
            finish_login(*account, std::move(checked.second), id);
        });
}

void WebSocketSession::finish_login(const AccountRecord& account, std::optional<std::string> rehash,
                                    const nlohmann::json& id) {
    const auto flags = state_.store().moderation(account.player_id);
    if (!flags) {
        read_failed("login: " + flags.error(), "the server could not read the account; try again",
                    id);
        return;
    }
    if (flags->closed) {
        reply_error(ErrorCode::account_closed, "this account has been closed by an admin", id);
        return;
    }
    const auto token = new_token();
    const auto token_hash = sha256_hex(token);
    WriteBatch batch = {AddSession{token_hash, account.player_id, unix_now()}};
    if (rehash) {
        batch.push_back(SetPassword{account.player_id, *rehash});
    }
    account_pending_ = true;
    store_then(std::move(batch), [this, account, token, token_hash, id](core::Status stored) {
        account_pending_ = false;
        if (!stored) {
            component_logger("ws")->error("client {}: login: {}", id_, stored.error());
            reply_error(ErrorCode::internal_error, "could not log in", id);
            return;
        }
        const auto player = state_.store().player(account.player_id);
        if (!player) {
            read_failed("login: " + player.error(), "could not log in; try again", id);
            return;
        }
        component_logger("ws")->info("client {}: logged in as {} ({})", id_, account.username,
                                     account.player_id);
        take_identity({account.player_id, *player ? (*player)->name : account.username},
                      protocol::AccountInfo{account.username, account.admin}, token_hash);
        reply(protocol::signed_in_message(*player_, token, *account_,
                                          state_.unfinished_games_of(account.player_id), id));
    });
}

void WebSocketSession::logout(const protocol::Request& request) {
    if (!account_) {
        reply_error(ErrorCode::account_required, "log in first", request.id);
        return;
    }
    const auto player_id = player_->id;
    WriteOp revoke = request.everywhere ? WriteOp(RevokeSessions{player_id, ""})
                                        : WriteOp(RevokeSession{token_hash_});
    account_pending_ = true;
    store_then({std::move(revoke)}, [this, player_id, everywhere = request.everywhere,
                                     id = request.id](core::Status stored) {
        account_pending_ = false;
        if (!stored) {
            reply_error(ErrorCode::internal_error, "could not log out", id);
            return;
        }
        drop_identity();
        reply(protocol::signed_out_message("logout", id));
        if (everywhere) {
            state_.sign_out(player_id, id_, "logout_everywhere");
        }
    });
}

void WebSocketSession::change_password(const protocol::Request& request) {
    if (!account_) {
        reply_error(ErrorCode::account_required, "log in first", request.id);
        return;
    }
    const auto key = username_key(account_->username);
    if (!state_.login_limiter().try_attempt(ip_, key)) {
        reply_error(ErrorCode::rate_limited, "too many attempts; wait a few minutes", request.id);
        return;
    }
    auto account = state_.store().account(player_->id);
    if (!account) {
        read_failed("change_password: " + account.error(),
                    "your account could not be read; try again", request.id);
        return;
    }
    if (!*account) {
        reply_error(ErrorCode::internal_error, "your account could not be read", request.id);
        return;
    }
    password_job(
        request.id,
        [stored = (*account)->password_hash, old = request.password, fresh = request.new_password,
         cost = state_.passwords().cost()]() -> std::optional<std::string> {
            if (!verify_password(stored, old)) {
                return std::nullopt;
            }
            auto hashed = hash_password(fresh, cost);
            return hashed ? std::optional<std::string>(std::move(*hashed)) : std::string();
        },
        [this, key, player_id = player_->id, id = request.id](std::optional<std::string> hashed) {
            if (!hashed) {
                state_.login_limiter().failed(ip_, key);
                reply_error(ErrorCode::bad_credentials, "wrong password", id);
                return;
            }
            if (hashed->empty() || !player_ || player_->id != player_id) {
                reply_error(ErrorCode::internal_error, "the password could not be changed", id);
                return;
            }
            account_pending_ = true;
            store_then({SetPassword{player_id, *hashed}, RevokeSessions{player_id, token_hash_}},
                       [this, player_id, id](core::Status stored) {
                           account_pending_ = false;
                           if (!stored) {
                               reply_error(ErrorCode::internal_error,
                                           "the password could not be changed", id);
                               return;
                           }
                           reply(protocol::password_changed_message(id));
                           state_.sign_out(player_id, id_, "password_changed");
                       });
        });
}

void WebSocketSession::admin_request(const protocol::Request& request) {
    constexpr const char* unreadable = "the server could not read the accounts; try again";
    if (!account_) {
        reply_error(ErrorCode::forbidden, "only admins may do this", request.id);
        return;
    }
    const auto me = state_.store().account(player_->id);
    if (!me) {
        read_failed("admin: " + me.error(), unreadable, request.id);
        return;
    }
    if (!*me || !(*me)->admin) {
        reply_error(ErrorCode::forbidden, "only admins may do this", request.id);
        return;
    }
    const auto found = state_.store().player(request.player_id);
    if (!found) {
        read_failed("admin: " + found.error(), unreadable, request.id);
        return;
    }
    if (!*found) {
        reply_error(ErrorCode::no_such_player, "there is no such player", request.id);
        return;
    }
    const PlayerRecord& target = **found;
    const bool mute = request.type == RequestType::admin_mute;
    if (!mute && target.id == (*me)->player_id) {
        reply_error(ErrorCode::forbidden, "you cannot close your own account", request.id);
        return;
    }
    WriteBatch batch;
    if (mute) {
        batch.push_back(SetModeration{target.id, request.muted, std::nullopt});
    } else {
        batch.push_back(SetModeration{target.id, std::nullopt, request.closed});
        if (request.closed) {
            batch.push_back(RevokeSessions{target.id, ""});
        }
    }
    account_pending_ = true;
    store_then(std::move(batch), [this, request, mute, target,
                                  admin = (*me)->username](core::Status stored) {
        account_pending_ = false;
        if (!stored) {
            reply_error(ErrorCode::internal_error, "could not change the account", request.id);
            return;
        }
        // What this request set takes effect even if the flags cannot be read back below.
        if (mute) {
            state_.set_muted(target.id, request.muted);
        } else if (request.closed) {
            state_.sign_out(target.id, 0, "account_closed");
        }
        const auto flags = state_.store().moderation(target.id);
        if (!flags) {
            read_failed("admin: " + flags.error(),
                        "the change was saved, but the account could not be read back", request.id);
            return;
        }
        component_logger("ws")->info("admin {}: {} {}: muted {}, closed {}", admin,
                                     protocol::request_type_name(request.type), target.id,
                                     flags->muted, flags->closed);
        reply(protocol::account_status_message(target.id, target.name, flags->muted, flags->closed,
                                               request.id));
    });
}

void WebSocketSession::drop_identity() {
    state_.lobby().post_client_gone(id_);
    for (const auto& [game_id, watched] : watching_) {
        if (auto room = watched.lock()) {
            room->post_client_gone(id_);
        }
    }
    watching_.clear();
    if (auto* relay = state_.relay()) {
        relay->client_gone(id_);  // the other nodes' rooms forget this connection too
    }
    watching_elsewhere_.clear();
    player_.reset();
    account_.reset();
    token_hash_.clear();
}

void WebSocketSession::take_identity(const protocol::PlayerInfo& player,
                                     std::optional<protocol::AccountInfo> account,
                                     std::string token_hash) {
    if (player_ && player_->id != player.id) {
        drop_identity();
    }
    player_ = player;
    account_ = std::move(account);
    token_hash_ = std::move(token_hash);
    state_.lobby().post_player_connected(actor());
}

void WebSocketSession::signed_out(const std::string& player_id, const std::string& reason) {
    asio::post(ws_.get_executor(), [self = shared_from_this(), player_id, reason] {
        if (self->player_ && self->player_->id == player_id && !self->left_) {
            self->drop_identity();
            self->reply(protocol::signed_out_message(reason, nullptr));
        }
    });
}

}  // namespace server
