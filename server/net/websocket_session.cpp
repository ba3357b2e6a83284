#include "server/net/websocket_session.h"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>

#include "protocol/version.h"
#include "server/game/lobby.h"
#include "server/game/room.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"

namespace server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using protocol::ErrorCode;
using protocol::RequestType;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

bool is_lobby_request(RequestType type) {
    return type == RequestType::lobby_subscribe || type == RequestType::lobby_unsubscribe ||
           type == RequestType::seek_create || type == RequestType::seek_cancel ||
           type == RequestType::seek_accept || type == RequestType::quick_pair;
}

// Whether an error is just the other side (or we) closing.
bool is_normal_close(const beast::error_code& ec) {
    return ec == websocket::error::closed || ec == asio::error::operation_aborted ||
           ec == asio::error::eof || ec == asio::error::connection_reset ||
           ec == beast::error::timeout || ec == asio::error::broken_pipe;
}

}  // namespace

WebSocketSession::WebSocketSession(ServerState& state, beast::tcp_stream&& stream)
    : state_(state),
      ws_(std::move(stream)),
      wake_(ws_.get_executor()),
      id_(state.next_client_id()),
      tokens_(2.0 * state.limits().rate_per_second),
      refilled_(std::chrono::steady_clock::now()) {}

void WebSocketSession::start(Request request) {
    auto self = shared_from_this();
    asio::co_spawn(ws_.get_executor(), run(self, std::move(request)),
                   asio::bind_executor(ws_.get_executor(), [self](std::exception_ptr error) {
                       if (error) {
                           self->died(error, "reader");
                       }
                   }));
}

// A coroutine of this session ended by an exception: it is logged, the client is closed with 1011
// (internal error), and the lobby and the rooms are told that the client is gone.
void WebSocketSession::died(const std::exception_ptr& error, const char* where) {
    log_exception(
        "ws", [&] { return "client " + std::to_string(id_) + " (" + where + ")"; }, error);
    guarded(
        "ws", [&] { return "client " + std::to_string(id_) + " leaving"; },
        [&] {
            request_close(websocket::close_code::internal_error);
            leave_everything();
        });
}

asio::awaitable<void> WebSocketSession::run(std::shared_ptr<WebSocketSession> self,
                                            Request request) {
    auto log = component_logger("ws");
    const auto& limits = self->state_.limits();
    beast::get_lowest_layer(self->ws_).expires_never();
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = std::chrono::seconds(30);
    timeouts.idle_timeout = limits.idle_timeout;
    timeouts.keep_alive_pings = true;
    self->ws_.set_option(timeouts);
    self->ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
        res.set(beast::http::field::server, protocol::server_software());
    }));
    self->ws_.read_message_max(limits.max_frame_bytes * hard_frame_factor);
    // Runs inside async_read, on this session's strand, while the coroutine holds `self`.
    self->ws_.control_callback(
        [session = self.get()](websocket::frame_type kind, beast::string_view payload) {
            if (kind == websocket::frame_type::pong) {
                session->on_pong(std::string_view(payload.data(), payload.size()));
            }
        });
    auto [accept_error] = co_await self->ws_.async_accept(request, use_tuple);
    if (accept_error) {
        log->debug("client {}: upgrade failed: {}", self->id_, accept_error.message());
        co_return;
    }
    if (self->state_.stopping()) {
        co_await self->ws_.async_close(websocket::close_code::going_away, use_tuple);
        co_return;
    }
    self->state_.join(self);
    beast::error_code endpoint_error;
    const auto peer = beast::get_lowest_layer(self->ws_).socket().remote_endpoint(endpoint_error);
    self->ip_ = endpoint_error ? std::string("?") : peer.address().to_string();
    log->info("client {}: connected from {}", self->id_, self->ip_);
    asio::co_spawn(self->ws_.get_executor(), write_loop(self),
                   asio::bind_executor(self->ws_.get_executor(), [self](std::exception_ptr error) {
                       if (error) {
                           self->abort();
                           self->died(error, "writer");
                       }
                   }));

    beast::flat_buffer buffer;
    while (!self->close_code_) {
        buffer.clear();
        auto [ec, size] = co_await self->ws_.async_read(buffer, use_tuple);
        if (ec) {
            if (!is_normal_close(ec)) {
                log->info("client {}: read ended: {}", self->id_, ec.message());
            }
            break;
        }
        if (size > limits.max_frame_bytes) {
            self->reply(protocol::error_message(
                ErrorCode::frame_too_large,
                "frames may have at most " + std::to_string(limits.max_frame_bytes) + " bytes",
                nullptr));
            self->request_close(websocket::close_code::too_big);
            break;
        }
        if (!self->ws_.got_text()) {
            self->reply(protocol::error_message(ErrorCode::bad_json, "send text frames", nullptr));
            continue;
        }
        self->on_text(beast::buffers_to_string(buffer.data()));
    }
    self->leave_everything();
    log->info("client {}: disconnected", self->id_);
}

asio::awaitable<void> WebSocketSession::write_loop(std::shared_ptr<WebSocketSession> self) {
    auto log = component_logger("ws");
    for (;;) {
        if (!self->queue_.empty()) {
            // The frame in flight leaves the queue first: abort() may clear the queue meanwhile.
            const Frame frame = std::move(self->queue_.front());
            self->queue_.pop_front();
            self->ws_.text(true);
            auto [ec, written] = co_await self->ws_.async_write(asio::buffer(*frame), use_tuple);
            if (ec || self->closed_) {
                self->abort();
                break;
            }
            continue;
        }
        if (self->close_code_) {
            auto [ec] = co_await self->ws_.async_close(*self->close_code_, use_tuple);
            if (ec && !is_normal_close(ec)) {
                log->debug("client {}: close: {}", self->id_, ec.message());
            }
            break;
        }
        if (self->closed_) {
            break;
        }
        const auto probe_every = self->state_.limits().lag_probe_interval;
        if (probe_every.count() > 0 && std::chrono::steady_clock::now() >= self->next_probe_) {
            // The writer sends the probes, so no ping ever overlaps a write or the close.
            self->probe_sent_ = std::chrono::steady_clock::now();
            self->next_probe_ = self->probe_sent_ + probe_every;
            const auto payload = "lag " + std::to_string(++self->probe_seq_);
            auto [ec] = co_await self->ws_.async_ping(
                websocket::ping_data(payload.data(), payload.size()), use_tuple);
            if (ec || self->closed_) {
                self->abort();
                break;
            }
            continue;
        }
        self->wake_.expires_at(probe_every.count() > 0
                                   ? self->next_probe_
                                   : std::chrono::steady_clock::time_point::max());
        co_await self->wake_.async_wait(use_tuple);
    }
    self->closed_ = true;
    self->queue_.clear();
}

void WebSocketSession::send(Frame frame) {
    asio::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)]() mutable {
        self->enqueue(std::move(frame));
    });
}

void WebSocketSession::enqueue(Frame frame) {
    if (closed_ || close_code_) {
        return;
    }
    if (queue_.size() >= state_.limits().max_queue) {
        component_logger("ws")->warn("client {}: {} frames behind, disconnecting", id_,
                                     queue_.size());
        abort();
        return;
    }
    queue_.push_back(std::move(frame));
    wake_.cancel();
}

void WebSocketSession::watching(std::string game_id, bool on) {
    asio::post(ws_.get_executor(), [self = shared_from_this(), game_id = std::move(game_id), on] {
        if (on && self->left_) {
            // The room added us after we had said goodbye to every room: say it again.
            if (auto room = self->state_.loaded_room(game_id)) {
                room->post_client_gone(self->id_);
            }
        } else if (on) {
            self->watching_.insert(game_id);
        } else {
            self->watching_.erase(game_id);
        }
    });
}

void WebSocketSession::close_going_away() {
    asio::post(ws_.get_executor(), [self = shared_from_this()] {
        self->request_close(websocket::close_code::going_away);
    });
}

void WebSocketSession::request_close(websocket::close_code code) {
    if (!close_code_ && !closed_) {
        close_code_ = code;
        wake_.cancel();
    }
}

// Drops the connection without a closing handshake (a client that cannot keep up, a dead socket).
void WebSocketSession::abort() {
    closed_ = true;
    queue_.clear();
    wake_.cancel();
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(ws_).socket().close(ignored);
}

void WebSocketSession::leave_everything() {
    if (left_) {
        return;
    }
    left_ = true;
    request_close(websocket::close_code::normal);
    state_.leave(id_);
    state_.lobby().post_client_gone(id_);
    for (const auto& game_id : watching_) {
        if (auto room = state_.loaded_room(game_id)) {
            room->post_client_gone(id_);
        }
    }
    watching_.clear();
}

Actor WebSocketSession::actor() {
    return Actor{weak_from_this(), id_, player_->id, player_->name, account_.has_value(), lag_ms_};
}

void WebSocketSession::on_pong(std::string_view payload) {
    if (payload != "lag " + std::to_string(probe_seq_)) {
        return;  // Beast's keep-alive, or an answer to an older probe
    }
    const auto rtt = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - probe_sent_)
                         .count();
    const int sample = static_cast<int>(std::clamp<std::int64_t>(rtt, 1, 60000));
    lag_ms_ = lag_ms_ == 0 ? sample : (3 * lag_ms_ + sample) / 4;
    for (const auto& game_id : watching_) {
        if (auto room = state_.loaded_room(game_id)) {
            room->post_lag(id_, lag_ms_);
        }
    }
}

// A token bucket: rate_per_second refill, two seconds' worth of burst.
bool WebSocketSession::take_token() {
    const auto rate = static_cast<double>(state_.limits().rate_per_second);
    const auto now = std::chrono::steady_clock::now();
    const std::chrono::duration<double> elapsed = now - refilled_;
    refilled_ = now;
    tokens_ = std::min(2.0 * rate, tokens_ + elapsed.count() * rate);
    if (tokens_ < 1.0) {
        return false;
    }
    tokens_ -= 1.0;
    return true;
}

void WebSocketSession::on_text(const std::string& text) {
    if (!take_token()) {
        reply(protocol::error_message(ErrorCode::rate_limited, "too many messages; slow down",
                                      nullptr));
        return;
    }
    auto parsed = protocol::parse_request(text);
    if (auto* error = std::get_if<protocol::RequestError>(&parsed)) {
        component_logger("ws")->debug("client {}: {} ({})", id_,
                                      protocol::error_code_name(error->error.code),
                                      error->error.message);
        reply(protocol::error_message(error->error, error->id));
        return;
    }
    on_request(std::get<protocol::Request>(std::move(parsed)));
}

void WebSocketSession::on_request(protocol::Request request) {
    if (request.type == RequestType::hello) {
        hello(request);
        return;
    }
    if (protocol::is_account_request(request.type) && player_) {
        account_request(request);
        return;
    }
    if (!player_) {
        reply(protocol::error_message(ErrorCode::hello_required, "send hello first", request.id));
        return;
    }
    if (request.type == RequestType::ping) {
        reply(protocol::pong_message(request.id));
    } else if (request.type == RequestType::set_name) {
        set_name(request);
    } else if (is_lobby_request(request.type)) {
        state_.lobby().post_request(actor(), std::move(request));
    } else {
        room_request(std::move(request));
    }
}

void WebSocketSession::room_request(protocol::Request request) {
    auto room = state_.room(request.game_id);
    if (!room) {
        read_failed("game " + request.game_id + ": " + room.error(),
                    "the server could not load this game; try again", request.id, request.game_id);
    } else if (*room) {
        (*room)->post_request(actor(), std::move(request));
    } else {
        reply(protocol::error_message(ErrorCode::no_such_game, "there is no such game", request.id,
                                      request.game_id));
    }
}

void WebSocketSession::read_failed(const std::string& error, const std::string& message,
                                   const nlohmann::json& id, std::string_view game_id) {
    component_logger("ws")->error("client {}: {}", id_, error);
    reply(protocol::error_message(ErrorCode::internal_error, message, id, game_id));
}

void WebSocketSession::hello(const protocol::Request& request) {
    if (request.protocol != protocol::protocol_version) {
        reply(protocol::error_message(ErrorCode::unsupported_protocol,
                                      "this server speaks protocol 1", request.id));
        request_close(websocket::close_code::policy_error);
        return;
    }
    if (player_ || hello_pending_) {
        reply(protocol::error_message(ErrorCode::bad_field, "hello was sent already", request.id));
        return;
    }
    // A token whose player cannot be read is not unknown: the client keeps it and tries again.
    constexpr const char* unreadable = "the server could not read your account; try again";
    std::optional<PlayerRecord> known;
    if (request.token) {
        auto found = state_.identities().restore(*request.token);
        if (!found) {
            read_failed("hello: " + found.error(), unreadable, request.id);
            return;
        }
        known = std::move(*found);
        if (!known) {
            reply(protocol::error_message(ErrorCode::bad_token,
                                          "unknown token; you are a new guest", request.id));
        }
    }
    std::optional<AccountRecord> account;
    if (known) {
        auto found = state_.store().account(known->id);
        if (!found) {
            read_failed("hello: " + found.error(), unreadable, request.id);
            return;
        }
        account = std::move(*found);
        token_hash_ = sha256_hex(*request.token);
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
        reply(protocol::error_message(ErrorCode::internal_error, "cannot create a player", id));
        return;
    }
    player_ = player;
    component_logger("ws")->info("client {}: player {} \"{}\"{}", id_, player_->id, player_->name,
                                 account_ ? " (account)" : "");
    reply(protocol::welcome_message(*player_, token, state_.unfinished_games_of(player_->id), id,
                                    account_ ? protocol::account_json(*account_) : nullptr));
    state_.lobby().post_player_connected(actor());
}

void WebSocketSession::set_name(const protocol::Request& request) {
    if (account_) {
        reply(protocol::error_message(ErrorCode::forbidden, "an account's name is its username",
                                      request.id));
        return;
    }
    store_then({RenamePlayer{player_->id, *request.name}}, [this, name = *request.name,
                                                            id = request.id](core::Status renamed) {
        if (!renamed) {
            reply(protocol::error_message(ErrorCode::internal_error, renamed.error(), id));
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
                           [&] { then(std::move(status)); });
                   });
    });
}

}  // namespace server
