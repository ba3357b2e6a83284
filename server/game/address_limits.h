#pragma once
// What one address may hold or do (issue 23): its open WebSockets (and everyone's together), the
// guests it creates per hour, its chat lines, its HTTP requests. The numbers are the Limits table
// (server/limits.h); seeks per address and games per player are counted where they live (the lobby,
// the rooms). Thread-safe; the clock is injected so tests can move time.
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "server/limits.h"

namespace server {

namespace cluster {
class SharedCounters;
}

class AddressLimits {
public:
    using Clock = std::chrono::steady_clock;

    // Why a connection was refused: the HTTP status and a sentence for the JSON body.
    struct Refusal {
        int status = 429;
        std::string message;
    };
    // Holds one open connection of an address; it is counted until the slot is destroyed.
    using Slot = std::shared_ptr<void>;

    explicit AddressLimits(const Limits& limits,
                           std::function<Clock::time_point()> now = &Clock::now);

    // A WebSocket from `ip` opens: its slot, or why not (429 over the address's share, 503 over the
    // server's). A slot may outlive this object.
    std::variant<Slot, Refusal> open_connection(const std::string& ip);
    // A hello from `ip` would create a new guest: whether it may (it then counts for an hour).
    bool try_new_guest(std::string_view ip);
    // A chat line from `ip`: whether it may be said (it then counts for chat_window).
    bool try_chat(std::string_view ip);
    // An HTTP request from `ip`: whether it is within the address's rate.
    bool try_http(std::string_view ip);

    // Cluster mode (issue 27): new guests and chat lines also count in `counters`, shared by every
    // node, so one address meets the same limits whichever node it reaches (fixed windows there,
    // beside this node's sliding ones; while Redis cannot be reached this node's counts apply).
    // Set once, before the first request.
    void share(std::shared_ptr<cluster::SharedCounters> counters);

    // Addresses with guests, chat or HTTP requests still counted (quiet ones are forgotten).
    std::size_t addresses_tracked();
    // Connections open now, from `ip` and in all.
    int connections_of(std::string_view ip);
    int connections();

private:
    using Times = std::deque<Clock::time_point>;
    struct Bucket {
        double tokens = 0;
        Clock::time_point refilled;
    };
    // Counts one more event for `ip` in `times` if fewer than `most` happened within `window`.
    bool take(std::map<std::string, Times, std::less<>>& times, std::string_view ip, int most,
              std::chrono::seconds window);
    // Whether the shared count of `key` allows one more (and counts it); true when it cannot be
    // read, or outside cluster mode.
    bool shared_take(const std::string& key, int most, std::chrono::seconds window);
    // Now and then, forgets addresses with nothing left to count (bounds the memory).
    void sweep(Clock::time_point now);

    Limits limits_;
    std::function<Clock::time_point()> now_;
    std::shared_ptr<cluster::SharedCounters> shared_;
    // Open connections, shared with the slots.
    struct Connections {
        std::mutex mutex;
        std::map<std::string, int, std::less<>> per_ip;
        int total = 0;
    };
    std::shared_ptr<Connections> connections_ = std::make_shared<Connections>();
    std::mutex mutex_;  // guards the rest
    std::map<std::string, Times, std::less<>> guests_;
    std::map<std::string, Times, std::less<>> chat_;
    std::map<std::string, Bucket, std::less<>> http_;
    std::size_t calls_ = 0;
};

}  // namespace server
