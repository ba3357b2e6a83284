// The transport of one browser connection (docs/architecture.md): the upgrade, the reader and the
// single writer with its bounded queue, lag probes, the message rate, and goodbye to the lobby and
// the rooms. What a request means is routed in websocket_routing.cpp; who the client is, in
// websocket_identity.cpp (hello, names) and websocket_accounts.cpp (accounts).
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
#include "server/game/relay.h"
#include "server/game/room.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"
#include "server/metrics/metrics.h"
#include "server/net/use_tuple.h"

namespace server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using protocol::ErrorCode;
using protocol::RequestType;

namespace {

// Whether an error is just the other side (or we) closing.
bool is_normal_close(const beast::error_code& ec) {
    return ec == websocket::error::closed || ec == asio::error::operation_aborted ||
           ec == asio::error::eof || ec == asio::error::connection_reset ||
           ec == beast::error::timeout || ec == asio::error::broken_pipe;
}

}  // namespace

WebSocketSession::WebSocketSession(ServerState& state, beast::tcp_stream&& stream, std::string ip,
                                   std::shared_ptr<void> slot)
    : state_(state),
      ws_(std::move(stream)),
      wake_(ws_.get_executor()),
      id_(state.sessions().next_client_id()),
      ip_(std::move(ip)),
      slot_(std::move(slot)),
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
    request = Request();  // the upgrade's headers: this frame lives as long as the connection
    if (self->state_.stopping()) {
        metrics().refused(Refusal::draining);
        co_await self->ws_.async_close(websocket::close_code::service_restart, use_tuple);
        co_return;
    }
    self->state_.sessions().join(self);
    metrics().connections_accepted.add();
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
            self->enqueue(error_frame(
                ErrorCode::frame_too_large,
                "frames may have at most " + std::to_string(limits.max_frame_bytes) + " bytes",
                nullptr));
            self->request_close(websocket::close_code::too_big);
            break;
        }
        if (!self->ws_.got_text()) {
            self->enqueue(error_frame(ErrorCode::bad_json, "send text frames", nullptr));
            continue;
        }
        self->received_ = std::chrono::steady_clock::now();
        self->on_text(beast::buffers_to_string(buffer.data()));
        if (buffer.capacity() > released_buffer_bytes) {
            buffer.clear();
            buffer.shrink_to_fit();  // a large frame's memory is not kept for an idle connection
        }
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
            self->queued_.store(self->queue_.size(), std::memory_order_relaxed);
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
    self->queued_.store(0, std::memory_order_relaxed);
}

void WebSocketSession::send(Frame frame) {
    if (behind_.load(std::memory_order_relaxed)) {
        return;  // it fell behind: being disconnected
    }
    // Posted but not yet queued frames count against the queue's cap too, so a session whose
    // strand is behind holds at most max_queue frames in all (no lock: two atomics).
    const auto waiting = posted_.fetch_add(1, std::memory_order_relaxed) + 1 +
                         queued_.load(std::memory_order_relaxed);
    if (waiting > state_.limits().max_queue) {
        posted_.fetch_sub(1, std::memory_order_relaxed);
        if (!behind_.exchange(true)) {
            asio::post(ws_.get_executor(),
                       [self = shared_from_this(), waiting] { self->fall_behind(waiting); });
        }
        return;
    }
    asio::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)]() mutable {
        self->posted_.fetch_sub(1, std::memory_order_relaxed);
        self->enqueue(std::move(frame));
    });
}

void WebSocketSession::enqueue(Frame frame) {
    if (closed_ || close_code_) {
        return;
    }
    const auto waiting = queue_.size() + posted_.load(std::memory_order_relaxed);
    if (waiting >= state_.limits().max_queue) {
        fall_behind(waiting + 1);
        return;
    }
    queue_.push_back(std::move(frame));
    queued_.store(queue_.size(), std::memory_order_relaxed);
    wake_.cancel();
}

void WebSocketSession::fall_behind(std::size_t frames) {
    if (closed_) {
        return;
    }
    component_logger("ws")->warn("client {}: {} frames behind, disconnecting", id_, frames);
    metrics().queue_drops.add();
    abort();
}

void WebSocketSession::watching(const std::shared_ptr<Room>& room, bool on) {
    asio::post(ws_.get_executor(), [self = shared_from_this(), room, on] {
        if (on && self->left_) {
            // The room added us after we had said goodbye to every room: say it again.
            room->post_client_gone(self->id_);
        } else if (on) {
            // Looking at this game now: the finished games this connection still watched let it
            // go (no more presence frames from games long over).
            for (const auto& [game_id, watched] : self->watching_) {
                if (auto other = watched.lock(); other && other != room) {
                    other->post_looked_away(self->id_);
                }
            }
            self->looked_away_elsewhere(room->id());
            self->watching_[room->id()] = room;
        } else if (auto it = self->watching_.find(room->id());
                   it != self->watching_.end() && it->second.lock() == room) {
            self->watching_.erase(it);
        }
    });
}

void WebSocketSession::watching_elsewhere(const std::string& game_id, const std::string& owner,
                                          bool on) {
    asio::post(ws_.get_executor(), [self = shared_from_this(), game_id, owner, on] {
        if (on && !self->left_) {
            for (const auto& [other_id, watched] : self->watching_) {
                if (auto other = watched.lock()) {
                    other->post_looked_away(self->id_);
                }
            }
            self->looked_away_elsewhere(game_id);
            self->watching_elsewhere_[game_id] = owner;
        } else if (auto it = self->watching_elsewhere_.find(game_id);
                   it != self->watching_elsewhere_.end() && it->second == owner) {
            self->watching_elsewhere_.erase(it);
        }
    });
}

void WebSocketSession::looked_away_elsewhere(const std::string& game_id) {
    if (auto* relay = state_.relay()) {
        for (const auto& [other_id, owner] : watching_elsewhere_) {
            if (other_id != game_id) {
                relay->looked_away(owner, id_, other_id);
            }
        }
    }
}

void WebSocketSession::close_after_queued(std::uint16_t code) {
    asio::post(ws_.get_executor(), [self = shared_from_this(), code] {
        self->request_close(static_cast<websocket::close_code>(code));
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
    behind_ = true;  // nothing more is posted to a closed session
    queue_.clear();
    queued_.store(0, std::memory_order_relaxed);
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
    state_.sessions().leave(id_);
    state_.lobby().post_client_gone(id_);
    for (const auto& [game_id, watched] : watching_) {
        if (auto room = watched.lock()) {
            room->post_client_gone(id_);
        }
    }
    watching_.clear();
    if (auto* relay = state_.relay()) {
        relay->client_gone(id_);
    }
    watching_elsewhere_.clear();
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
    for (const auto& [game_id, watched] : watching_) {
        if (auto room = watched.lock()) {
            room->post_lag(id_, lag_ms_);
        }
    }
    if (auto* relay = state_.relay()) {
        for (const auto& [game_id, owner] : watching_elsewhere_) {
            relay->lag(owner, id_, game_id, lag_ms_);
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

}  // namespace server
