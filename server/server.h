#pragma once
// The whole server: an io_context run by a few threads, the shared state, and the listener.
// start() restores unfinished games from the store and listens; shutdown() drains: it takes no new
// WebSocket (503 with Retry-After; /readyz says 503), tells every client `server_restart` (later
// requests get server_restarting), waits until the writes already accepted are stored and their
// events and acks queued (at most drain_grace), closes the listener and every client with 1012
// (service restart) after its queued frames, and lets the threads finish; the store then writes
// whatever is still queued as it closes.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "core/expected.h"
#include "server/game/time_source.h"
#include "server/limits.h"
#include "server/store/store.h"
#include "server/tournament/arena_schedule.h"

namespace boost::asio {
class io_context;
}

namespace server {

class BotPool;

struct ServerOptions {
    std::string bind = "0.0.0.0";
    std::uint16_t port = 8080;  // 0: any free port (see Server::port)
    std::string web_root = "web-client";
    std::string puzzles = "puzzles/bank.json";  // the puzzle bank (issue 25; missing: no puzzles)
    Limits limits;
    int threads = 2;
    // The game clocks' time; null: this node's clock (ServerClock) or, in cluster mode, the
    // cluster's (cluster/cluster_clock.h: Redis's, the same on every node).
    std::shared_ptr<TimeSource> time;
    // This node's own clock set off by this much: the fault suite's skew between nodes
    // (tests/faults/fault_server.cpp); zero otherwise. Unused when `time` is given.
    std::chrono::milliseconds clock_skew{0};
    // Cluster mode (issue 27): redis://… turns it on ("" runs alone); this node's id ("" picks
    // hostname-random); how long a room's lease lives unless renewed.
    std::string redis;
    std::string node_id;
    int lease_ms = 5000;
    // Issue 43: the arenas the server creates itself (server/game/arena_scheduler.h); off: none.
    // Cluster mode creates none yet.
    bool scheduled_tournaments = true;
    tournament::ArenaSchedule tournament_schedule = tournament::default_schedule();
};

class Server {
public:
    // Binds and starts serving on background threads; an error says what failed (bad address,
    // port in use, a store that cannot be read; a game whose events cannot be replayed is only
    // logged).
    static core::Expected<std::unique_ptr<Server>> start(const ServerOptions& options,
                                                         Store& store);
    ~Server();

    std::uint16_t port() const;
    std::string address() const;
    // Starts the drain (above); callable from any thread, including a signal handler's strand.
    void shutdown();
    // Blocks until every thread has finished.
    void wait();
    // Installs SIGINT/SIGTERM handlers that call shutdown().
    void stop_on_signals();
    // The computer players' pool (tests hold it to keep a bot from moving).
    BotPool& bots();

private:
    struct Impl;
    explicit Server(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// Runs `io` on the calling thread until it is stopped or runs out of work. An exception that
// escapes a handler is logged and the thread goes back to work (Asio allows run() again without
// restart()). Every I/O thread of the server runs this.
void run_io_thread(boost::asio::io_context& io);

}  // namespace server
