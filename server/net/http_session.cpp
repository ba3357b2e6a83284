#include "server/net/http_session.h"

#include <optional>
#include <string_view>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "protocol/version.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"
#include "server/net/http_api.h"
#include "server/net/static_files.h"
#include "server/net/websocket_session.h"

namespace server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

http::response<http::string_body> make_response(const HttpReply& reply, unsigned version,
                                                bool keep_alive, bool head) {
    http::response<http::string_body> res{static_cast<http::status>(reply.status), version};
    res.set(http::field::server, protocol::server_software());
    res.set(http::field::content_type, reply.content_type);
    res.set("X-Content-Type-Options", "nosniff");
    res.set(http::field::cache_control, "no-cache");
    res.keep_alive(keep_alive);
    if (head) {
        res.content_length(reply.body.size());
    } else {
        res.body() = reply.body;
        res.prepare_payload();
    }
    return res;
}

// The answer to a request that could not be read, if it deserves one: 431 when its header is over
// the limit, 413 when its body is, 400 when it is not HTTP; nothing when the peer just went away.
std::optional<HttpReply> unreadable_reply(const beast::error_code& ec) {
    if (ec == http::error::header_limit) {
        return json_reply(431, R"({"error":"request header fields too large"})");
    }
    if (ec == http::error::body_limit) {
        return json_reply(413, R"({"error":"request body too large"})");
    }
    if (ec.category() == http::make_error_code(http::error::bad_target).category() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message) {
        return json_reply(400, R"({"error":"bad request"})");
    }
    return std::nullopt;
}

// A Sec-WebSocket-Key is 16 bytes in base64: 22 characters of the alphabet and "==".
bool valid_websocket_key(std::string_view key) {
    if (key.size() != 24 || key.substr(22) != "==") {
        return false;
    }
    for (const char c : key.substr(0, 22)) {
        const bool base64 = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                            (c >= '0' && c <= '9') || c == '+' || c == '/';
        if (!base64) {
            return false;
        }
    }
    return true;
}

HttpReply route(ServerState& state, const http::request<http::string_body>& req) {
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
        return json_reply(405, R"({"error":"method not allowed"})");
    }
    const std::string_view target(req.target().data(), req.target().size());
    if (target == "/ws" || target.substr(0, 4) == "/ws?") {
        return json_reply(426, R"({"error":"use a WebSocket"})");
    }
    const auto authorization = req[http::field::authorization];
    if (auto api = serve_api(state.store(), target,
                             std::string_view(authorization.data(), authorization.size()))) {
        return *api;
    }
    return serve_static(state.web_root(), target);
}

}  // namespace

asio::awaitable<void> serve_http(ServerState& state, asio::ip::tcp::socket socket) {
    auto log = component_logger("http");
    beast::tcp_stream stream(std::move(socket));
    beast::flat_buffer buffer;
    for (;;) {
        stream.expires_after(http_read_timeout);
        http::request_parser<http::string_body> parser;
        parser.body_limit(http_body_limit);
        auto [ec, size] = co_await http::async_read(stream, buffer, parser, use_tuple);
        if (ec) {
            if (ec != http::error::end_of_stream && ec != beast::error::timeout &&
                ec != asio::error::connection_reset && ec != asio::error::eof) {
                log->debug("read: {}", ec.message());
            }
            if (auto reply = unreadable_reply(ec)) {
                auto res = make_response(*reply, 11, false, false);
                co_await http::async_write(stream, res, use_tuple);
            }
            break;
        }
        auto req = parser.release();
        const std::string_view target(req.target().data(), req.target().size());
        if (beast::websocket::is_upgrade(req)) {
            const auto key = req[http::field::sec_websocket_key];
            if (!valid_websocket_key(std::string_view(key.data(), key.size()))) {
                auto res = make_response(
                    json_reply(400, R"({"error":"Sec-WebSocket-Key must be 16 bytes in base64"})"),
                    req.version(), false, false);
                co_await http::async_write(stream, res, use_tuple);
                break;
            }
            if (target == "/ws" || target.substr(0, 4) == "/ws?") {
                stream.expires_never();
                std::make_shared<WebSocketSession>(state, std::move(stream))->start(std::move(req));
                co_return;
            }
            auto res = make_response(not_found_reply(), req.version(), false, false);
            co_await http::async_write(stream, res, use_tuple);
            break;
        }
        HttpReply reply;
        const bool answered = guarded(
            "http", [&] { return std::string(req.method_string()) + " " + std::string(target); },
            [&] { reply = route(state, req); });
        if (!answered) {
            reply = json_reply(500, R"({"error":"internal error"})");
        }
        log->debug("{} {} -> {}", std::string(req.method_string()), std::string(target),
                   reply.status);
        auto res = make_response(reply, req.version(), req.keep_alive() && !state.stopping(),
                                 req.method() == http::verb::head);
        auto [write_error, written] = co_await http::async_write(stream, res, use_tuple);
        if (write_error || !res.keep_alive()) {
            break;
        }
    }
    beast::error_code ignored;
    stream.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
}

void start_http_session(ServerState& state, asio::ip::tcp::socket socket) {
    beast::error_code ec;
    const auto peer = socket.remote_endpoint(ec);
    std::string who = ec ? std::string("?") : peer.address().to_string();
    auto executor = socket.get_executor();
    asio::co_spawn(executor, serve_http(state, std::move(socket)),
                   asio::bind_executor(executor, [who](std::exception_ptr error) {
                       if (error) {
                           log_exception("http", "connection from " + who, error);
                       }
                   }));
}

}  // namespace server
