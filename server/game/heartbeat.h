#pragma once
// The server's heartbeat: at start it reads when earlier runs of the server were alive (their gaps
// are the downtime that game clocks refund, downtime.h), records its own start, and then writes
// "still alive" every `heartbeat_interval`; a clean shutdown writes the last moment. After a crash
// the last heartbeat stands for the end of the run, so a player to move gets back at most one
// interval more than the server was really down.
#include <atomic>
#include <chrono>
#include <cstdint>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "core/expected.h"
#include "server/game/downtime.h"
#include "server/game/time_source.h"
#include "server/store/store.h"

namespace server {

// At most this much time a player used before a crash is given back (issue 42: it was 5 s).
inline constexpr std::chrono::seconds heartbeat_interval{1};
// A run not heard of (its ServerRun::alive_at) for this long is taken for dead (issue 42): its
// analysis claims are taken over, its seeks deleted. Ten heartbeats, so that a node whose store
// stalls for a moment keeps what it holds.
inline constexpr std::chrono::seconds run_dead_after{10};

// Whether a run last alive at `alive_at_ms` (Unix ms; 0: unknown) counts as alive at `now`.
inline bool run_alive(std::int64_t alive_at_ms, ServerTime now) {
    return alive_at_ms > 0 &&
           alive_at_ms >=
               unix_ms(now) -
                   std::chrono::duration_cast<std::chrono::milliseconds>(run_dead_after).count();
}

class Heartbeat {
public:
    Heartbeat(boost::asio::io_context& io, Store& store, const TimeSource& time);

    // Reads the earlier runs and records this one (waits for the store: start-up only); then beats
    // on the io_context. The downtime before now, or the error of the read or the write.
    core::Expected<Downtime> start();
    // Records the last moment this run was alive and stops beating (waits for the store).
    void stop();
    // Records now as the last moment this run was alive and waits for the store (never on an I/O
    // thread): the harmless write by which GET /readyz learns whether the store can be written
    // (readiness.h). An error before start() or after stop().
    core::Status beat_now();
    // This run's start (ServerRun::started_at), which names it among the runs: 0 before start()
    // and after stop().
    std::int64_t run_started_at() const { return started_at_.load(); }

private:
    void beat();

    boost::asio::steady_timer timer_;
    Store& store_;
    const TimeSource& time_;
    std::atomic<std::int64_t> started_at_{0};  // 0: not started (or stopped)
};

}  // namespace server
