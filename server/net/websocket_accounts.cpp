// A connection's account requests (issue 16): register, login, logout and change_password (the
// admin requests are in websocket_admin.cpp). Password hashing and checking run on the password
// worker (ServerState), the store's reads and the login limiter's counts (Redis round trips in
// cluster mode) on the blocking pool, never on an I/O thread, a room strand or the store's writer;
// the session continues on its own strand once they are done, holding the connection's later
// frames meanwhile, and acts on a change only once the store has committed it.
#include <boost/asio/post.hpp>

#include "server/game/identity.h"
#include "server/game/lobby.h"
#include "server/game/relay.h"
#include "server/game/room.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"
#include "server/net/websocket_pool_job.h"
#include "server/net/websocket_session.h"
#include "server/store/username_key.h"

namespace server {

namespace asio = boost::asio;
using protocol::ErrorCode;
using protocol::RequestType;

namespace {

// What the pool found before a password is checked: whether the limiter refused the attempt, and
// the account read (none: no such username, or the limiter refused).
struct AttemptLookup {
    bool refused = false;
    std::optional<AccountRecord> account;
};

// On the pool: the limiter's word on an attempt from `ip` on `key`, then (if allowed) the account
// `read` finds; an error when the read fails.
template <class Read>
core::Expected<AttemptLookup> look_up_attempt(ServerState& state, const std::string& ip,
                                              const std::string& key, Read read) {
    if (!state.login_limiter().try_attempt(ip, key)) {
        return AttemptLookup{true, std::nullopt};
    }
    auto found = read();
    if (!found) {
        return core::make_error(found.error());
    }
    return AttemptLookup{false, std::move(*found)};
}

constexpr const char* too_many_attempts = "too many attempts; wait a few minutes";

}  // namespace

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
    pool_job(
        &WebSocketSession::account_pending_, request.id,
        [&state = state_, ip = ip_, username = request.username] {
            return look_up_attempt(state, ip, "",
                                   [&] { return state.store().account_by_username(username); });
        },
        [this, request](core::Expected<AttemptLookup> taken) {
            if (!taken) {
                read_failed("register: " + taken.error(),
                            "the server could not check the username; try again", request.id);
                return;
            }
            if (taken->refused) {
                reply_error(ErrorCode::rate_limited, too_many_attempts, request.id);
                return;
            }
            if (taken->account) {
                reply_error(ErrorCode::name_taken, "this username is taken", request.id);
                return;
            }
            password_job(
                request.id,
                [password = request.password, cost = state_.passwords().cost()] {
                    return hash_password(password, cost);
                },
                [this, username = request.username,
                 id = request.id](core::Expected<std::string> hashed) {
                    if (!hashed) {
                        component_logger("ws")->error("client {}: {}", id_, hashed.error());
                        reply_error(ErrorCode::internal_error, "the password could not be hashed",
                                    id);
                        return;
                    }
                    finish_register(username, *hashed, id);
                });
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
                       // Taken by someone else meanwhile, or a failed write: the pool reads which.
                       pool_job(
                           &WebSocketSession::account_pending_, id,
                           [&state = state_, username] {
                               return state.store().account_by_username(username);
                           },
                           [this, player_id, error = stored.error(),
                            id](core::Expected<std::optional<AccountRecord>> other) {
                               if (other && *other && (*other)->player_id != player_id) {
                                   reply_error(ErrorCode::name_taken, "this username is taken", id);
                                   return;
                               }
                               component_logger("ws")->error("client {}: register: {}", id_, error);
                               reply_error(ErrorCode::internal_error, "could not register", id);
                           });
                       return;
                   }
                   component_logger("ws")->info("client {}: player {} registered as {}", id_,
                                                player_id, username);
                   take_identity({player_id, username}, protocol::AccountInfo{username, false},
                                 token_hash);
                   // The guest's other connections held a token that is gone now.
                   state_.account_news().sign_out(player_id, id_, "registered");
                   with_unfinished_games(&WebSocketSession::account_pending_, player_id,
                                         [this, token, id](const std::vector<std::string>& games) {
                                             reply(protocol::signed_in_message(
                                                 *player_, token, *account_, games, id));
                                         });
               });
}

void WebSocketSession::login(const protocol::Request& request) {
    const auto key = username_key(request.username);
    pool_job(
        &WebSocketSession::account_pending_, request.id,
        [&state = state_, ip = ip_, key, username = request.username] {
            return look_up_attempt(state, ip, key,
                                   [&] { return state.store().account_by_username(username); });
        },
        [this, request, key](core::Expected<AttemptLookup> found) {
            if (!found) {
                read_failed("login: " + found.error(),
                            "the server could not read the account; try again", request.id);
                return;
            }
            if (found->refused) {
                reply_error(ErrorCode::rate_limited, too_many_attempts, request.id);
                return;
            }
            check_login(std::move(found->account), request, key);
        });
}

void WebSocketSession::check_login(std::optional<AccountRecord> account,
                                   const protocol::Request& request, const std::string& key) {
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
            // On the pool: the limiter counts the outcome, and a good password reads the flags.
            const bool ok = checked.first;
            pool_job(
                &WebSocketSession::account_pending_, id,
                [&state = state_, ip = ip_, key, ok,
                 player_id = ok ? account->player_id
                                : std::string()]() -> core::Expected<std::optional<Moderation>> {
                    if (!ok) {
                        state.login_limiter().failed(ip, key);
                        return std::optional<Moderation>();
                    }
                    state.login_limiter().succeeded(ip, key);
                    auto flags = state.store().moderation(player_id);
                    if (!flags) {
                        return core::make_error(flags.error());
                    }
                    return std::optional<Moderation>(*flags);
                },
                [this, account, rehash = std::move(checked.second),
                 id](core::Expected<std::optional<Moderation>> flags) {
                    if (!flags) {
                        read_failed("login: " + flags.error(),
                                    "the server could not read the account; try again", id);
                        return;
                    }
                    if (!*flags) {
                        reply_error(ErrorCode::bad_credentials, "wrong username or password", id);
                        return;
                    }
                    finish_login(*account, rehash, **flags, id);
                });
        });
}

void WebSocketSession::finish_login(const AccountRecord& account, std::optional<std::string> rehash,
                                    const Moderation& flags, const nlohmann::json& id) {
    if (flags.closed) {
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
        using Found = std::pair<std::optional<PlayerRecord>, std::vector<std::string>>;
        pool_job(
            &WebSocketSession::account_pending_, id,
            [&state = state_, player_id = account.player_id]() -> core::Expected<Found> {
                auto player = state.store().player(player_id);
                if (!player) {
                    return core::make_error(player.error());
                }
                // A store read too in cluster mode.
                return Found{std::move(*player), state.unfinished_games_of(player_id)};
            },
            [this, account, token, token_hash, id](core::Expected<Found> found) {
                if (!found) {
                    read_failed("login: " + found.error(), "could not log in; try again", id);
                    return;
                }
                const auto& player = found->first;
                component_logger("ws")->info("client {}: logged in as {} ({})", id_,
                                             account.username, account.player_id);
                take_identity({account.player_id, player ? player->name : account.username},
                              protocol::AccountInfo{account.username, account.admin}, token_hash);
                reply(protocol::signed_in_message(*player_, token, *account_, found->second, id));
            });
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
            state_.account_news().sign_out(player_id, id_, "logout_everywhere");
        }
    });
}

void WebSocketSession::change_password(const protocol::Request& request) {
    if (!account_) {
        reply_error(ErrorCode::account_required, "log in first", request.id);
        return;
    }
    const auto key = username_key(account_->username);
    pool_job(
        &WebSocketSession::account_pending_, request.id,
        [&state = state_, ip = ip_, key, player_id = player_->id] {
            return look_up_attempt(state, ip, key,
                                   [&] { return state.store().account(player_id); });
        },
        [this, request, key](core::Expected<AttemptLookup> found) {
            if (!found) {
                read_failed("change_password: " + found.error(),
                            "your account could not be read; try again", request.id);
                return;
            }
            if (found->refused) {
                reply_error(ErrorCode::rate_limited, too_many_attempts, request.id);
                return;
            }
            if (!found->account) {
                reply_error(ErrorCode::internal_error, "your account could not be read",
                            request.id);
                return;
            }
            check_password_change(*found->account, request, key);
        });
}

void WebSocketSession::check_password_change(const AccountRecord& account,
                                             const protocol::Request& request,
                                             const std::string& key) {
    password_job(
        request.id,
        [stored = account.password_hash, old = request.password, fresh = request.new_password,
         cost = state_.passwords().cost()]() -> std::optional<std::string> {
            if (!verify_password(stored, old)) {
                return std::nullopt;
            }
            auto hashed = hash_password(fresh, cost);
            return hashed ? std::optional<std::string>(std::move(*hashed)) : std::string();
        },
        [this, key, player_id = player_->id, id = request.id](std::optional<std::string> hashed) {
            if (!hashed) {
                // Counted on the pool (a Redis round trip in cluster mode) before the answer.
                pool_job(
                    &WebSocketSession::account_pending_, id,
                    [&state = state_, ip = ip_, key] {
                        state.login_limiter().failed(ip, key);
                        return core::ok_status();
                    },
                    [this, id](const core::Status&) {
                        reply_error(ErrorCode::bad_credentials, "wrong password", id);
                    });
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
                           state_.account_news().sign_out(player_id, id_, "password_changed");
                       });
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
