#pragma once
// Real-socket helpers for the server tests: an in-process server on 127.0.0.1 with port 0 and a
// memory store, a WebSocket client that validates every frame it sends and receives against
// docs/schema/, and a minimal HTTP client.
#include <chrono>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/limits.h"
#include "server/server.h"
#include "server/store/store.h"

namespace test {

using nlohmann::json;

// A server in this process with its own web root (index.html, app.js, style.css, a nested file and
// a symlink that leads out of the root).
class TestServer {
public:
    // `time` drives the game clocks (the steady clock when null; tests/server/manual_time.h).
    // `scheduled_tournaments`: whether the server creates its default schedule's arenas
    // (ServerOptions::scheduled_tournaments); off unless a test asks, so that the other tests
    // see only the tournaments they create.
    explicit TestServer(server::Limits limits = {}, std::unique_ptr<server::Store> store = nullptr,
                        std::shared_ptr<server::TimeSource> time = nullptr,
                        bool scheduled_tournaments = false);
    ~TestServer();

    std::uint16_t port() const;
    server::Store& store() { return *store_; }
    // The running server (null once stopped).
    server::Server* server() { return server_.get(); }
    const std::filesystem::path& web_root() const { return web_root_; }
    // Stops the server and starts a new one on the same store (a restart).
    void restart();
    // The puzzle bank the next start() reads (ServerOptions::puzzles; default: its default).
    void set_puzzles(std::string path) { puzzles_ = std::move(path); }
    void stop();

private:
    void start();

    server::Limits limits_;
    std::unique_ptr<server::Store> store_;
    std::shared_ptr<server::TimeSource> time_;
    std::filesystem::path web_root_;
    std::optional<std::string> puzzles_;
    bool scheduled_tournaments_ = false;
    std::unique_ptr<server::Server> server_;
};

struct HttpResult {
    int status = 0;
    std::string content_type;
    std::string body;
};

// One request on a fresh connection; `target` is sent verbatim.
// `authorization`, when set, is sent as the Authorization header ("Bearer <token>").
HttpResult http_get(std::uint16_t port, const std::string& target,
                    const std::string& method = "GET", const std::string& authorization = "");

// Sends `request` verbatim (a whole HTTP request) on a fresh connection and reads the answer: its
// status (0 when none came), header block and body (read until the server closes, except after a
// 101).
struct RawAnswer {
    int status = 0;
    std::string head;
    std::string body;
};
RawAnswer raw_http(std::uint16_t port, const std::string& request);
// A WebSocket upgrade of /ws (or, with `upgrade` false, a GET of `target`) on a fresh connection,
// carrying one X-Forwarded-For line per entry of `forwarded_for`, in that order.
RawAnswer forwarded_request(std::uint16_t port, const std::vector<std::string>& forwarded_for,
                            bool upgrade = true, const std::string& target = "/ws");

class WsClient {
public:
    // `forwarded_for`, when set, is sent as X-Forwarded-For (a proxy's word for the client's
    // address; the server believes it only from a --trusted-proxy).
    explicit WsClient(std::uint16_t port, const std::string& forwarded_for = "");
    ~WsClient();

    // Sends a message after checking it against its client schema.
    void send(const json& message);
    // Sends any text, unchecked (for malformed frames).
    void send_raw(const std::string& text);
    // The next message matching `pred` (earlier non-matching ones stay in the inbox); fails the
    // test and returns null after `timeout`.
    json wait_for(const std::function<bool(const json&)>& pred,
                  std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));
    json wait_type(const std::string& type);
    // The error answering the request with `id`.
    json wait_error(const json& id);
    // Round trip with ping/pong: every frame the server sent before the pong is in the inbox.
    void sync();
    // Sends hello (with a token if given) and returns the welcome.
    json hello(const std::optional<std::string>& token = std::nullopt,
               const std::optional<std::string>& name = std::nullopt);
    // Every message received so far, in order (validated).
    const std::vector<json>& history() const { return history_; }
    std::vector<json> history_of(const std::string& type) const;
    // True once the server closed the connection; close_code() tells how.
    bool wait_closed(std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));
    int close_code() const { return close_code_; }
    bool closed() const { return closed_; }
    void close();
    const std::string& player_id() const { return player_id_; }
    const std::string& token() const { return token_; }
    const std::string& name() const { return name_; }
    std::size_t schema_violations() const { return violations_; }

private:
    bool read_one(std::chrono::milliseconds timeout);

    struct Impl;
    std::unique_ptr<Impl> impl_;
    std::deque<json> inbox_;
    std::vector<json> history_;
    bool closed_ = false;
    bool server_closed_ = false;
    int close_code_ = 0;
    std::string player_id_;
    std::string token_;
    std::string name_;
    std::size_t violations_ = 0;
    int next_ping_ = 0;
};

json parse(const std::string& text);

// The default limits with the message rate raised, for tests that play whole games at full speed.
server::Limits fast_limits();
// fast_limits() without lag probes: snapshots taken seconds apart on a slow (sanitized, loaded)
// machine stay equal, where a probe coming back would change the players' lag_ms in between.
server::Limits fast_limits_without_lag();
// `limits` with 127.0.0.1 trusted as a proxy: a test then speaks from any address by sending
// X-Forwarded-For.
server::Limits behind_proxy(server::Limits limits = fast_limits());

// The value of the series `series` (its name and labels exactly as written, e.g.
// `chessence_errors_total{code="illegal_move"}`) in a GET /metrics answer, or -1 when absent.
double metric_value(const std::string& scrape, const std::string& series);

// True once `condition` holds, polled every 10 ms; false after `timeout` (for effects nobody
// waits for, such as a seek's deletion from the store).
bool eventually(const std::function<bool()>& condition,
                std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));

}  // namespace test
