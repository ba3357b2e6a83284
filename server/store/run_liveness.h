#pragma once
// When a run of a node counts as alive (issue 42): by its ServerRun::alive_at, which its heartbeat
// (server/game/heartbeat.h) writes every second. A run not heard of for run_dead_after is taken
// for dead: its analysis claims are taken over, its seeks deleted.
#include <chrono>
#include <cstdint>

namespace server {

// Ten heartbeats, so that a node whose store stalls for a moment keeps what it holds.
inline constexpr std::chrono::seconds run_dead_after{10};

// Whether a run last alive at `alive_at_ms` (Unix ms; 0: unknown) counts as alive at `now_ms`.
inline bool run_alive(std::int64_t alive_at_ms, std::int64_t now_ms) {
    return alive_at_ms > 0 &&
           alive_at_ms >=
               now_ms -
                   std::chrono::duration_cast<std::chrono::milliseconds>(run_dead_after).count();
}

}  // namespace server
