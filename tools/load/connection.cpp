#include "tools/load/connection.h"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/websocket.hpp>

namespace load {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;

namespace {
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
}

Connection::Connection(asio::io_context& io, Target target, std::string forwarded_for)
    : io_(io), target_(std::move(target)), forwarded_for_(std::move(forwarded_for)), ws_(io) {}

void Connection::open(std::function<void(bool)> opened) {
    asio::co_spawn(io_, run(shared_from_this(), std::move(opened)), asio::detached);
}

asio::awaitable<void> Connection::run(std::shared_ptr<Connection> self,
                                      std::function<void(bool)> opened) {
    asio::ip::tcp::resolver resolver(io_);
    auto [resolve_error, endpoints] =
        co_await resolver.async_resolve(target_.host, target_.port, use_tuple);
    if (resolve_error) {
        opened(false);
        co_return;
    }
    auto& socket = beast::get_lowest_layer(ws_);
    auto [connect_error, endpoint] = co_await socket.async_connect(endpoints, use_tuple);
    if (connect_error) {
        opened(false);
        co_return;
    }
    socket.socket().set_option(asio::ip::tcp::no_delay(true));
    ws_.set_option(websocket::stream_base::decorator([this](websocket::request_type& req) {
        if (!forwarded_for_.empty()) {
            req.set("X-Forwarded-For", forwarded_for_);
        }
    }));
    const std::string host = target_.host + ":" + target_.port;
    auto [handshake_error] = co_await ws_.async_handshake(host, target_.path, use_tuple);
    if (handshake_error) {
        opened(false);
        co_return;
    }
    open_ = true;
    opened(true);
    if (!out_.empty() && !writing_) {
        writing_ = true;
        asio::co_spawn(io_, write_loop(self), asio::detached);
    }
    beast::flat_buffer buffer;
    for (;;) {
        auto [read_error, size] = co_await ws_.async_read(buffer, use_tuple);
        if (read_error) {
            break;
        }
        ++frames_;
        if (on_text) {
            const auto data = buffer.data();
            on_text(std::string_view(static_cast<const char*>(data.data()), data.size()));
        } else if (on_message) {
            auto message =
                nlohmann::json::parse(beast::buffers_to_string(buffer.data()), nullptr, false);
            if (!message.is_discarded()) {
                on_message(message);
            }
        }
        buffer.consume(buffer.size());
    }
    ended();
}

void Connection::send(const nlohmann::json& message) {
    if (closed_) {
        return;
    }
    out_.push_back(message.dump());
    if (open_ && !writing_) {
        writing_ = true;  // before the spawn: a second send must not start a second writer
        asio::co_spawn(io_, write_loop(shared_from_this()), asio::detached);
    }
}

asio::awaitable<void> Connection::write_loop(std::shared_ptr<Connection> self) {
    (void)self;  // keeps the connection alive while the writer runs
    while (!out_.empty() && !closed_) {
        const std::string text = std::move(out_.front());
        out_.pop_front();
        ws_.text(true);
        auto [error, written] = co_await ws_.async_write(asio::buffer(text), use_tuple);
        if (error) {
            break;
        }
    }
    writing_ = false;
}

void Connection::close() {
    if (!open_ || closed_) {
        return;
    }
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    beast::get_lowest_layer(ws_).socket().close(ignored);
}

void Connection::ended() {
    if (closed_) {
        return;
    }
    closed_ = true;
    if (on_closed) {
        on_closed();
    }
}

}  // namespace load
