#include "server/test_support.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "protocol/schema_validator.h"
#include "server/store/memory_store.h"

namespace test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using asio::ip::tcp;

namespace {

schema::Validator& validator() {
    static schema::Validator instance(schema::protocol_schema_root());
    return instance;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

json parse(const std::string& text) {
    return json::parse(text, nullptr, false);
}

server::Limits fast_limits() {
    server::Limits limits;
    limits.rate_per_second = 100000;
    return limits;
}

double metric_value(const std::string& scrape, const std::string& series) {
    std::istringstream lines(scrape);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(series + " ", 0) == 0) {
            return std::stod(line.substr(series.size() + 1));
        }
    }
    return -1;
}

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!condition()) {
        if (std::chrono::steady_clock::now() >= deadline) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
}

server::Limits fast_limits_without_lag() {
    auto limits = fast_limits();
    limits.lag_probe_interval = std::chrono::milliseconds(0);
    return limits;
}

TestServer::TestServer(server::Limits limits, std::unique_ptr<server::Store> store,
                       std::shared_ptr<server::TimeSource> time, bool scheduled_tournaments)
    : limits_(limits),
      store_(store ? std::move(store) : server::make_memory_store()),
      time_(std::move(time)),
      scheduled_tournaments_(scheduled_tournaments) {
    static int counter = 0;
    const auto base =
        std::filesystem::temp_directory_path() /
        ("chessence_server_test_" + std::to_string(::getpid()) + "_" + std::to_string(++counter));
    std::filesystem::remove_all(base);
    web_root_ = base / "web";
    write_file(web_root_ / "index.html", "<!doctype html><title>Chessence</title>");
    write_file(web_root_ / "app.js", "export const x = 1;\n");
    write_file(web_root_ / "style.css", "body{}\n");
    write_file(web_root_ / "img" / "piece.svg", "<svg/>");
    write_file(base / "secret.txt", "top secret");
    std::error_code ec;
    std::filesystem::create_symlink(base / "secret.txt", web_root_ / "leak.txt", ec);
    std::filesystem::create_directory_symlink(base, web_root_ / "up", ec);
    start();
}

TestServer::~TestServer() {
    stop();
    std::filesystem::remove_all(web_root_.parent_path());
}

void TestServer::start() {
    server::ServerOptions options;
    options.bind = "127.0.0.1";
    options.port = 0;
    options.web_root = web_root_.string();
    options.limits = limits_;
    options.threads = 2;
    options.time = time_;
    options.scheduled_tournaments = scheduled_tournaments_;
    if (puzzles_) {
        options.puzzles = *puzzles_;
    }
    auto started = server::Server::start(options, *store_);
    if (!started) {
        ADD_FAILURE() << "server did not start: " << started.error();
        return;
    }
    server_ = std::move(*started);
}

void TestServer::stop() {
    if (server_) {
        server_->shutdown();
        server_->wait();
        server_.reset();
    }
}

void TestServer::restart() {
    stop();
    start();
}

std::uint16_t TestServer::port() const {
    return server_ ? server_->port() : 0;
}

RawAnswer forwarded_request(std::uint16_t port, const std::vector<std::string>& forwarded_for,
                            bool upgrade, const std::string& target) {
    std::string request = "GET " + target + " HTTP/1.1\r\nHost: x\r\n";
    for (const auto& line : forwarded_for) {
        request += "X-Forwarded-For: " + line + "\r\n";
    }
    if (upgrade) {
        request +=
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    } else {
        request += "Connection: close\r\n";
    }
    return raw_http(port, request + "\r\n");
}

server::Limits behind_proxy(server::Limits limits) {
    limits.trusted_proxies = "127.0.0.1";
    return limits;
}

RawAnswer raw_http(std::uint16_t port, const std::string& request) {
    asio::io_context io;
    tcp::socket socket(io);
    beast::error_code ec;
    socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
    if (ec) {
        ADD_FAILURE() << "connect: " << ec.message();
        return {};
    }
    asio::write(socket, asio::buffer(request), ec);
    asio::streambuf buffer;
    asio::read_until(socket, buffer, "\r\n\r\n", ec);
    if (ec) {
        return {};
    }
    std::string all(asio::buffers_begin(buffer.data()), asio::buffers_end(buffer.data()));
    RawAnswer answer;
    answer.head = all.substr(0, all.find("\r\n\r\n"));
    if (answer.head.rfind("HTTP/1.1 ", 0) != 0 || answer.head.size() < 12) {
        return {};
    }
    answer.status = std::stoi(answer.head.substr(9, 3));
    if (answer.status != 101) {
        asio::read(socket, buffer, ec);  // until the server closes
        all.assign(asio::buffers_begin(buffer.data()), asio::buffers_end(buffer.data()));
        answer.body = all.substr(all.find("\r\n\r\n") + 4);
    }
    return answer;
}

HttpResult http_get(std::uint16_t port, const std::string& target, const std::string& method,
                    const std::string& authorization) {
    HttpResult result;
    asio::io_context io;
    beast::tcp_stream stream(io);
    beast::error_code ec;
    stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
    if (ec) {
        ADD_FAILURE() << "connect: " << ec.message();
        return result;
    }
    http::request<http::empty_body> req{http::string_to_verb(method), target, 11};
    req.set(http::field::host, "127.0.0.1");
    if (!authorization.empty()) {
        req.set(http::field::authorization, authorization);
    }
    req.keep_alive(false);
    http::write(stream, req, ec);
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.skip(method == "HEAD");
    http::read(stream, buffer, parser, ec);
    if (ec && ec != http::error::end_of_stream) {
        ADD_FAILURE() << "read: " << ec.message();
        return result;
    }
    auto res = parser.release();
    result.status = static_cast<int>(res.result_int());
    result.content_type = std::string(res[http::field::content_type]);
    result.body = res.body();
    return result;
}

struct WsClient::Impl {
    asio::io_context io;
    websocket::stream<tcp::socket> ws{io};
    beast::flat_buffer buffer;
};

WsClient::WsClient(std::uint16_t port, const std::string& forwarded_for)
    : impl_(std::make_unique<Impl>()) {
    beast::error_code ec;
    impl_->ws.next_layer().connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
    if (!forwarded_for.empty()) {
        impl_->ws.set_option(
            websocket::stream_base::decorator([forwarded_for](websocket::request_type& req) {
                req.set("X-Forwarded-For", forwarded_for);
            }));
    }
    if (!ec) {
        impl_->ws.handshake("127.0.0.1", "/ws", ec);
    }
    if (ec) {
        ADD_FAILURE() << "websocket connect: " << ec.message();
        closed_ = true;
    }
}

WsClient::~WsClient() {
    close();
}

void WsClient::close() {
    if (!closed_) {
        beast::error_code ec;
        impl_->ws.next_layer().shutdown(tcp::socket::shutdown_both, ec);
        impl_->ws.next_layer().close(ec);
        closed_ = true;
    }
}

void WsClient::send(const json& message) {
    const auto errors = validator().validate_message(message, "client");
    EXPECT_TRUE(errors.empty()) << "client frame breaks its schema: " << message.dump() << ": "
                                << (errors.empty() ? "" : errors[0]);
    send_raw(message.dump());
}

void WsClient::send_raw(const std::string& text) {
    if (closed_) {
        return;
    }
    beast::error_code ec;
    impl_->ws.text(true);
    impl_->ws.write(asio::buffer(text), ec);
    if (ec) {
        closed_ = true;
        server_closed_ = true;
    }
}

bool WsClient::read_one(std::chrono::milliseconds timeout) {
    if (closed_) {
        return false;
    }
    bool done = false;
    beast::error_code result;
    impl_->buffer.clear();
    impl_->ws.async_read(impl_->buffer, [&](beast::error_code ec, std::size_t) {
        done = true;
        result = ec;
    });
    impl_->io.restart();
    impl_->io.run_for(timeout);
    if (!done) {
        beast::error_code ignored;
        impl_->ws.next_layer().cancel(ignored);
        impl_->io.restart();
        impl_->io.run();
        close();
        return false;
    }
    if (result) {
        close_code_ = impl_->ws.reason().code;
        closed_ = true;
        server_closed_ = true;
        return false;
    }
    auto message = parse(beast::buffers_to_string(impl_->buffer.data()));
    const auto errors = validator().validate_message(message, "server");
    if (!errors.empty()) {
        ++violations_;
        ADD_FAILURE() << "server frame breaks its schema: " << message.dump() << ": " << errors[0];
    }
    history_.push_back(message);
    inbox_.push_back(std::move(message));
    return true;
}

json WsClient::wait_for(const std::function<bool(const json&)>& pred,
                        std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::size_t checked = 0;
    for (;;) {
        for (; checked < inbox_.size(); ++checked) {
            if (pred(inbox_[checked])) {
                json found = std::move(inbox_[checked]);
                inbox_.erase(inbox_.begin() + static_cast<std::ptrdiff_t>(checked));
                return found;
            }
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0 || !read_one(left)) {
            ADD_FAILURE() << "no expected message arrived; last: "
                          << (history_.empty() ? "none" : history_.back().dump());
            return nullptr;
        }
    }
}

json WsClient::wait_type(const std::string& type) {
    return wait_for([&](const json& m) { return m.value("type", "") == type; });
}

json WsClient::wait_error(const json& id) {
    return wait_for([&](const json& m) {
        return m.value("type", "") == "error" && m.value("id", json()) == id;
    });
}

void WsClient::sync() {
    const std::string id = "sync" + std::to_string(++next_ping_);
    send({{"type", "ping"}, {"id", id}});
    wait_for([&](const json& m) {
        return m.value("type", "") == "pong" && m.value("id", json()) == id;
    });
}

json WsClient::hello(const std::optional<std::string>& token,
                     const std::optional<std::string>& name) {
    json message = {{"type", "hello"}, {"protocol", 1}, {"id", "hello"}};
    if (token) {
        message["token"] = *token;
    }
    if (name) {
        message["name"] = *name;
    }
    send(message);
    auto welcome = wait_type("welcome");
    if (welcome.is_object()) {
        player_id_ = welcome["player"]["id"];
        name_ = welcome["player"]["name"];
        token_ = welcome["token"];
    }
    return welcome;
}

std::vector<json> WsClient::history_of(const std::string& type) const {
    std::vector<json> found;
    for (const auto& m : history_) {
        if (m.value("type", "") == type) {
            found.push_back(m);
        }
    }
    return found;
}

bool WsClient::wait_closed(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!closed_) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            return false;
        }
        read_one(left);
    }
    return server_closed_;
}

}  // namespace test
