#pragma once
// A real chessence-server process for end-to-end tests, and a small WebSocket client that speaks
// the JSON protocol to it with timeouts (Boost.Beast).
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace live_test {

using nlohmann::json;
using namespace std::chrono_literals;

// Starts `chessence-server --port 0 --db <db> --web-root <web_root> <extra…>` and reads the port
// from its "listening on <address>:<port>" line. SIGKILLs it on kill() or destruction.
class ServerProcess {
public:
    ServerProcess(const std::string& db, const std::string& web_root, const std::string& log,
                  const std::vector<std::string>& extra = {}) {
        const std::string bin = std::string(CHESSENCE_BIN_DIR) + "/chessence-server";
        std::vector<std::string> args = {bin,    "--port", "0",          "--bind", "127.0.0.1",
                                         "--db", db,       "--web-root", web_root};
        args.insert(args.end(), extra.begin(), extra.end());
        std::vector<char*> argv;
        for (auto& arg : args) {
            argv.push_back(arg.data());
        }
        argv.push_back(nullptr);
        int out[2];
        if (pipe(out) != 0) {
            return;
        }
        pid_ = fork();
        if (pid_ == 0) {
            dup2(out[1], STDOUT_FILENO);
            const auto err = std::fopen(log.c_str(), "a");
            if (err) {
                dup2(fileno(err), STDERR_FILENO);
            }
            close(out[0]);
            close(out[1]);
            execv(bin.c_str(), argv.data());
            _exit(127);
        }
        close(out[1]);
        out_ = out[0];
        port_ = read_port();
    }
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;
    ~ServerProcess() {
        kill_now();
        if (out_ >= 0) {
            close(out_);
        }
    }

    // The listening port, 0 if the server did not come up within 15 s.
    unsigned short port() const { return port_; }

    // Sends `sig` (SIGSTOP, SIGCONT, …) to the server.
    void signal(int sig) {
        if (pid_ > 0) {
            ::kill(pid_, sig);
        }
    }

    // SIGKILL, no warning, no clean shutdown; returns once the process is gone.
    void kill_now() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            int status = 0;
            waitpid(pid_, &status, 0);
            pid_ = -1;
        }
    }

private:
    unsigned short read_port() {
        std::string text;
        const auto deadline = std::chrono::steady_clock::now() + 15s;
        while (std::chrono::steady_clock::now() < deadline) {
            pollfd p{out_, POLLIN, 0};
            if (poll(&p, 1, 200) <= 0) {
                continue;
            }
            char buffer[256];
            const auto n = read(out_, buffer, sizeof buffer);
            if (n <= 0) {
                return 0;
            }
            text.append(buffer, static_cast<std::size_t>(n));
            const auto at = text.find("listening on ");
            const auto end = at == std::string::npos ? at : text.find('\n', at);
            if (end != std::string::npos) {
                const auto line = text.substr(at, end - at);
                return static_cast<unsigned short>(std::stoi(line.substr(line.rfind(':') + 1)));
            }
        }
        return 0;
    }

    pid_t pid_ = -1;
    int out_ = -1;
    unsigned short port_ = 0;
};

// One WebSocket connection to /ws; every read has a deadline so a test fails instead of hanging.
class Client {
public:
    explicit Client(unsigned short port) : ws_(ioc_) {
        boost::asio::ip::tcp::resolver resolver(ioc_);
        boost::beast::get_lowest_layer(ws_).connect(
            boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
        ws_.handshake("127.0.0.1:" + std::to_string(port), "/ws");
        ws_.text(true);
    }

    void send(const json& message) { ws_.write(boost::asio::buffer(message.dump())); }

    // The next message for which `wanted` is true (others are skipped), or nothing on timeout or
    // a closed connection.
    std::optional<json> next(const std::function<bool(const json&)>& wanted,
                             std::chrono::milliseconds timeout = 10s) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            auto message = read_one(deadline);
            if (!message) {
                return std::nullopt;
            }
            if (wanted(*message)) {
                return message;
            }
        }
        return std::nullopt;
    }

    // The next message of `type` (and, if given, of that event kind).
    std::optional<json> next_of(const std::string& type, const std::string& kind = "") {
        return next([&](const json& m) {
            return m.value("type", "") == type &&
                   (kind.empty() || (m.contains("event") && m["event"].value("kind", "") == kind));
        });
    }

private:
    std::optional<json> read_one(std::chrono::steady_clock::time_point deadline) {
        boost::beast::flat_buffer buffer;
        boost::system::error_code result = boost::asio::error::would_block;
        ws_.async_read(buffer, [&](boost::system::error_code ec, std::size_t) { result = ec; });
        ioc_.restart();
        ioc_.run_until(deadline);
        if (result == boost::asio::error::would_block) {
            boost::system::error_code ignored;
            boost::beast::get_lowest_layer(ws_).socket().close(ignored);
            ioc_.restart();
            ioc_.run();
            return std::nullopt;
        }
        if (result) {
            return std::nullopt;
        }
        auto parsed = json::parse(boost::beast::buffers_to_string(buffer.data()), nullptr, false);
        if (parsed.is_discarded()) {
            return std::nullopt;
        }
        return parsed;
    }

    boost::asio::io_context ioc_;
    boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
};

// GET (or `method`) `target` from the server: {status, body}; status 0 if no answer came within
// 10 s.
inline std::pair<int, std::string> http_get(
    unsigned short port, const std::string& target,
    boost::beast::http::verb method = boost::beast::http::verb::get) {
    namespace http = boost::beast::http;
    boost::asio::io_context ioc;
    boost::beast::tcp_stream stream(ioc);
    stream.expires_after(10s);
    http::request<http::empty_body> request{method, target, 11};
    request.set(http::field::host, "127.0.0.1");
    boost::beast::flat_buffer buffer;
    http::response<http::string_body> response;
    bool done = false;
    stream.async_connect(
        boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port),
        [&](boost::system::error_code ec) {
            if (ec) {
                return;
            }
            http::async_write(stream, request, [&](boost::system::error_code ec, std::size_t) {
                if (ec) {
                    return;
                }
                http::async_read(stream, buffer, response,
                                 [&](boost::system::error_code ec, std::size_t) { done = !ec; });
            });
        });
    ioc.run();
    return done ? std::pair{static_cast<int>(response.result_int()), response.body()}
                : std::pair{0, std::string()};
}

}  // namespace live_test
