#pragma once
// What the server counts for GET /metrics (issue 24), in one place: counters and histograms that
// any thread updates without a lock, gathered in one process-wide registry as Prometheus client
// libraries do (a process serves one server; tests compare before and after). What is read at
// scrape time instead (connections, rooms, the process's CPU and memory) is in exposition.h.
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "protocol/errors.h"

namespace server {

class Counter {
public:
    void add(std::uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
    std::uint64_t value() const { return value_.load(std::memory_order_relaxed); }

private:
    std::atomic<std::uint64_t> value_{0};
};

// A Prometheus histogram: cumulative buckets by upper bound, a count and a sum.
class Histogram {
public:
    // `bounds`: the buckets' upper bounds, increasing (the +Inf bucket is implied).
    Histogram(std::initializer_list<double> bounds);

    void observe(double value);
    void observe(std::chrono::steady_clock::duration elapsed) {
        observe(std::chrono::duration<double>(elapsed).count());
    }

    struct Snapshot {
        std::vector<double> bounds;
        std::vector<std::uint64_t> cumulative;  // one per bound, then +Inf (== count)
        std::uint64_t count = 0;
        double sum = 0;
    };
    // Consistent enough for monitoring: each bucket is read once, and the count is the +Inf bucket.
    Snapshot snapshot() const;

private:
    std::vector<double> bounds_;
    std::vector<std::atomic<std::uint64_t>> buckets_;  // per bound (not cumulative), then +Inf
    std::atomic<double> sum_{0};
};

// Why a connection or an HTTP request was turned away before any game request was read.
enum class Refusal : std::uint8_t {
    http_rate,            // 429: an address over its HTTP request rate
    origin,               // 403: a WebSocket from a page of another origin
    address_connections,  // 429: an address over its share of WebSockets
    server_connections,   // 503: the server holds all the WebSockets it may
    oversized_request,    // 413, 414, 431: a request line, header or body too large
    draining,             // the server is shutting down
};
inline constexpr std::size_t refusal_count = static_cast<std::size_t>(Refusal::draining) + 1;
std::string_view refusal_name(Refusal reason);

struct Metrics {
    Counter connections_accepted;  // WebSocket upgrades accepted
    std::array<Counter, refusal_count> refusals;
    std::array<Counter, protocol::error_code_count> errors;  // error frames sent, by code
    Counter moves;                                           // moves committed (every game)
    Counter queue_drops;      // clients disconnected for falling max_queue frames behind
    Counter accept_failures;  // connections the listener could not accept (EMFILE, ...)
    // Issue 42: the free heap returned to the system (memory_return.h), and the resident bytes
    // that gave back.
    Counter memory_returns;
    Counter memory_returned_bytes;
    // A move's frame received -> its event handed to every watcher (the store's commit included).
    Histogram move_seconds{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5};
    // A batch handed to the store -> its outcome known (durable or refused).
    Histogram commit_seconds{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                             0.05,   0.1,   0.25,   0.5,   1,    2.5};
    // Batches written in one transaction (the group commit: one fsync for them all).
    Histogram commit_group_batches{1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
    // Issue 25: what the computer players did (server/bots/): moves (Sniderman: also objects
    // named and sides chosen) and how long each took to think.
    Counter bot_moves;
    Histogram bot_think_seconds{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

    void refused(Refusal reason) { refusals[static_cast<std::size_t>(reason)].add(); }
    void error_sent(protocol::ErrorCode code) { errors[static_cast<std::size_t>(code)].add(); }
};

// The process's registry.
Metrics& metrics();

}  // namespace server
