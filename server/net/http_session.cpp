#include "server/net/http_session.h"

#include <atomic>
#include <optional>
#include <string_view>
#include <tuple>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <nlohmann/json.hpp>

#include "protocol/version.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"
#include "server/metrics/metrics.h"
#include "server/net/client_address.h"
#include "server/net/http_analysis.h"
#include "server/net/http_api.h"
#include "server/net/http_operations.h"
#include "server/net/http_puzzles.h"
#include "server/net/http_tournaments.h"
#include "server/net/origin.h"
#include "server/net/pool_await.h"
#include "server/net/static_files.h"
#include "server/net/use_tuple.h"
#include "server/net/websocket_session.h"

namespace server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

http::response<http::string_body> make_response(const HttpReply& reply, unsigned version,
                                                bool keep_alive, bool head) {
    http::response<http::string_body> res{static_cast<http::status>(reply.status), version};
    res.set(http::field::server, protocol::server_software());
    res.set(http::field::content_type, reply.content_type);
    // Pages run only this server's own scripts and styles, in no one else's frame; links out name
    // no page of ours (a private game's link carries its key).
    res.set("Content-Security-Policy",
            "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
            "object-src 'none'");
    res.set("X-Content-Type-Options", "nosniff");
    res.set("X-Frame-Options", "DENY");
    res.set("Referrer-Policy", "same-origin");
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

// The answer to a request that could not be read, if it deserves one: 414 when the header limit
// was reached before the request line ended (`request_line_read` false) or by a target over the
// limit, 431 when the header fields are too large, 413 when the body is, 400 when it is not HTTP;
// nothing when the peer just went away or was too slow.
std::optional<HttpReply> unreadable_reply(const beast::error_code& ec, bool request_line_read,
                                          std::size_t target_size) {
    if (ec == http::error::header_limit) {
        if (!request_line_read || target_size > http_target_limit) {
            return json_reply(414, R"({"error":"request target too long"})");
        }
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

// `ip`: the client's address (the per-address limits).
HttpReply route(ServerState& state, const http::request<http::string_body>& req,
                const std::string& ip) {
    const std::string_view target(req.target().data(), req.target().size());
    const auto authorization_field = req[http::field::authorization];
    const std::string_view authorization(authorization_field.data(), authorization_field.size());
    const bool post = req.method() == http::verb::post;
    if (!post && req.method() != http::verb::get && req.method() != http::verb::head) {
        return json_reply(405, R"({"error":"method not allowed"})");
    }
    // Issue 25: the analysis takes a POST (the body, if any, is not read).
    if (auto analysis = serve_analysis(state, post, target, authorization, ip)) {
        return *analysis;
    }
    // Issue 43: the tournaments take POSTs with a form body.
    if (auto tournaments = serve_tournaments(state, post, target, authorization, req.body())) {
        return *tournaments;
    }
    if (post) {
        return json_reply(405, R"({"error":"method not allowed"})");
    }
    if (target == "/ws" || target.substr(0, 4) == "/ws?") {
        return json_reply(426, R"({"error":"use a WebSocket"})");
    }
    if (auto operations = serve_operations(state, target, authorization)) {
        return *operations;
    }
    if (auto puzzles = serve_puzzle_api(state.puzzles(), target, puzzle_moment_now())) {
        return *puzzles;
    }
    if (auto api = serve_api(state.store(), target, authorization)) {
        return *api;
    }
    return serve_static(state.web_root(), target);
}

// The probes, answered at once on the I/O thread: they read no store and no file (/readyz reads
// what the readiness thread last found), and a busy pool must not make a live server look dead.
bool answered_on_io_thread(const http::request<http::string_body>& req) {
    if (req.method() != http::verb::get && req.method() != http::verb::head) {
        return false;
    }
    const std::string_view target(req.target().data(), req.target().size());
    const std::string_view path = target.substr(0, target.find('?'));
    return path == "/healthz" || path == "/readyz";
}

// route() on the blocking pool; nothing when the pool is full.
asio::awaitable<std::optional<core::Expected<HttpReply>>> route_on_pool(
    ServerState& state, const http::request<http::string_body>& req, const std::string& ip) {
    co_return co_await async_run_on(
        state.blocking(),
        [&state, &req, &ip]() -> core::Expected<HttpReply> { return route(state, req, ip); },
        asio::use_awaitable);
}

}  // namespace

asio::awaitable<void> serve_http(ServerState& state, asio::ip::tcp::socket socket) {
    auto log = component_logger("http");
    beast::error_code endpoint_error;
    const auto endpoint = socket.remote_endpoint(endpoint_error);
    const std::string peer = endpoint_error ? std::string("?") : endpoint.address().to_string();
    beast::tcp_stream stream(std::move(socket));
    beast::flat_buffer buffer;
    for (;;) {
        http::request_parser<http::string_body> parser;
        parser.header_limit(http_header_limit);
        parser.body_limit(http_body_limit);
        // The header within the header timeout (a slow or idle peer is cut off: the stream closes),
        // then the body, if any, within the body timeout.
        stream.expires_after(state.limits().http_header_timeout);
        auto [ec, size] = co_await http::async_read_header(stream, buffer, parser, use_tuple);
        if (!ec && !parser.is_done()) {
            stream.expires_after(http_body_timeout);
            std::tie(ec, size) = co_await http::async_read(stream, buffer, parser, use_tuple);
        }
        if (ec) {
            if (ec != http::error::end_of_stream && ec != beast::error::timeout &&
                ec != asio::error::connection_reset && ec != asio::error::eof) {
                log->debug("read: {}", ec.message());
            }
            // Beast consumes the request line as soon as it is complete: a method was parsed.
            const auto& partial = parser.get();
            const bool request_line_read =
                partial.method() != http::verb::unknown || !partial.method_string().empty();
            if (auto reply = unreadable_reply(ec, request_line_read, partial.target().size())) {
                if (reply->status != 400) {
                    metrics().refused(Refusal::oversized_request);
                }
                stream.expires_after(http_body_timeout);
                auto res = make_response(*reply, 11, false, false);
                co_await http::async_write(stream, res, use_tuple);
            }
            break;
        }
        stream.expires_after(http_body_timeout);  // to answer
        auto req = parser.release();
        const std::string_view target(req.target().data(), req.target().size());
        // Every X-Forwarded-For line, not only the first: a proxy appends its own after the
        // client's.
        const auto forwarded = forwarded_for(req);
        const auto ip = client_address(peer, forwarded, state.trusted_proxies());
        if (!forwarded.empty() && ip == peer && state.trusted_proxies().empty()) {
            static std::atomic<bool> warned{false};
            if (!warned.exchange(true)) {
                log->warn(
                    "X-Forwarded-For from {} ignored: if a proxy is in front, name it with "
                    "--trusted-proxy, or every client counts as that one address",
                    peer);
            }
        }
        std::optional<HttpReply> refusal;
        if (target.size() > http_target_limit) {
            refusal = json_reply(414, R"({"error":"request target too long"})");
        } else if (!state.address_limits().try_http(ip)) {
            refusal =
                json_reply(429, R"({"error":"too many requests from your address; slow down"})");
        }
        if (refusal) {
            metrics().refused(refusal->status == 429 ? Refusal::http_rate
                                                     : Refusal::oversized_request);
            auto res = make_response(*refusal, req.version(), false, false);
            if (refusal->status == 429) {
                res.set(http::field::retry_after, "1");
            }
            co_await http::async_write(stream, res, use_tuple);
            break;
        }
        if (beast::websocket::is_upgrade(req)) {
            const auto key = req[http::field::sec_websocket_key];
            if (!valid_websocket_key(std::string_view(key.data(), key.size()))) {
                auto res = make_response(
                    json_reply(400, R"({"error":"Sec-WebSocket-Key must be 16 bytes in base64"})"),
                    req.version(), false, false);
                co_await http::async_write(stream, res, use_tuple);
                break;
            }
            const auto origin = req[http::field::origin];
            const auto host = req[http::field::host];
            const auto allowed = parse_origin_list(state.limits().allowed_origins);
            if (!origin_allowed(std::string_view(origin.data(), origin.size()),
                                std::string_view(host.data(), host.size()),
                                allowed ? *allowed : std::vector<std::string>{})) {
                log->debug("{}: WebSocket from origin '{}' refused", ip, std::string(origin));
                metrics().refused(Refusal::origin);
                auto res = make_response(
                    json_reply(403, R"({"error":"pages from this origin may not connect; the )"
                                    R"(operator can allow it with --allowed-origin"})"),
                    req.version(), false, false);
                co_await http::async_write(stream, res, use_tuple);
                break;
            }
            if (state.stopping()) {
                metrics().refused(Refusal::draining);
                auto res = make_response(
                    json_reply(503, R"({"error":"the server is restarting; connect again in a )"
                                    R"(moment"})"),
                    req.version(), false, false);
                res.set(http::field::retry_after, "1");
                co_await http::async_write(stream, res, use_tuple);
                break;
            }
            if (target == "/ws" || target.substr(0, 4) == "/ws?") {
                auto slot = state.address_limits().open_connection(ip);
                if (auto* refused = std::get_if<AddressLimits::Refusal>(&slot)) {
                    log->debug("{}: WebSocket refused: {}", ip, refused->message);
                    metrics().refused(refused->status == 503 ? Refusal::server_connections
                                                             : Refusal::address_connections);
                    const nlohmann::json body = {{"error", refused->message}};
                    auto res = make_response(json_reply(refused->status, body.dump()),
                                             req.version(), false, false);
                    co_await http::async_write(stream, res, use_tuple);
                    break;
                }
                stream.expires_never();
                std::make_shared<WebSocketSession>(state, std::move(stream), ip,
                                                   std::move(std::get<AddressLimits::Slot>(slot)))
                    ->start(std::move(req));
                co_return;
            }
            auto res = make_response(not_found_reply(), req.version(), false, false);
            co_await http::async_write(stream, res, use_tuple);
            break;
        }
        HttpReply reply;
        bool busy = false;
        if (answered_on_io_thread(req)) {
            const bool answered = guarded(
                "http",
                [&] { return std::string(req.method_string()) + " " + std::string(target); },
                [&] { reply = route(state, req, ip); });
            if (!answered) {
                reply = json_reply(500, R"({"error":"internal error"})");
            }
        } else {
            // The store, the files and the exports are read on the pool; this thread serves the
            // other connections meanwhile (`req` and `ip` live until the coroutine resumes).
            auto routed = co_await route_on_pool(state, req, ip);
            if (!routed) {
                busy = true;
                const nlohmann::json body = {{"error", pool_busy_text}};
                reply = json_reply(503, body.dump());
            } else if (!*routed) {
                log->error("{} {}: {}", std::string(req.method_string()), std::string(target),
                           routed->error());
                reply = json_reply(500, R"({"error":"internal error"})");
            } else {
                reply = std::move(**routed);
            }
        }
        log->debug("{} {} -> {}", std::string(req.method_string()), std::string(target),
                   reply.status);
        auto res = make_response(reply, req.version(), req.keep_alive() && !state.stopping(),
                                 req.method() == http::verb::head);
        if (busy) {
            res.set(http::field::retry_after, "1");
        }
        stream.expires_after(http_body_timeout);  // to write, however long the answer took
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
