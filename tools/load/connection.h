#pragma once
// One WebSocket connection of the load generator (Boost.Beast), on a single-threaded io_context:
// connect and upgrade, then every text frame goes to `on_message` as parsed JSON; `send` queues a
// frame and a single writer sends them in order. No locks: everything runs on the one thread.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <nlohmann/json.hpp>

namespace load {

struct Target {
    std::string host = "127.0.0.1";
    std::string port = "8080";
    std::string path = "/ws";
};

class Connection : public std::enable_shared_from_this<Connection> {
public:
    using Handler = std::function<void(const nlohmann::json&)>;

    // `forwarded_for`, when not empty, is sent as X-Forwarded-For (a server that trusts 127.0.0.1
    // as a proxy then counts each connection as its own address).
    Connection(boost::asio::io_context& io, Target target, std::string forwarded_for);

    // Connects and upgrades; `opened(true)` once open (then frames flow to on_message), false on
    // failure. `closed()` runs once when an open connection ends, whoever ended it.
    void open(std::function<void(bool)> opened);
    void send(const nlohmann::json& message);
    void close();

    Handler on_message;
    // When set, frames go here as text instead, unparsed (the spectators: a thousand of them must
    // not make the load generator the bottleneck).
    std::function<void(std::string_view)> on_text;
    std::function<void()> on_closed;
    bool is_open() const { return open_ && !closed_; }
    std::uint64_t frames_received() const { return frames_; }

private:
    boost::asio::awaitable<void> run(std::shared_ptr<Connection> self,
                                     std::function<void(bool)> opened);
    boost::asio::awaitable<void> write_loop(std::shared_ptr<Connection> self);
    void ended();

    boost::asio::io_context& io_;
    Target target_;
    std::string forwarded_for_;
    boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
    std::deque<std::string> out_;
    bool writing_ = false;
    bool open_ = false;
    bool closed_ = false;
    std::uint64_t frames_ = 0;
};

}  // namespace load
