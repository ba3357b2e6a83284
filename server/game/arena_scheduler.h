#pragma once
// The arenas the server creates itself (issue 43, docs/tournaments.md "Scheduled arenas"): at
// start-up, every scheduler_interval and whenever the game clocks' time jumps (a test's
// ManualTime), a pass on the blocking pool reads the stored tournaments not finished, rebuilds
// the schedule keys of the server's own (created_by "", key "<name>@<starts_at>",
// server/tournament/arena_schedule.h), asks `due` which arenas to create now and creates each
// through Tournaments::create_arena. Passes never overlap, and each reads what the last one
// stored, so no arena is created twice — across restarts too. Off in cluster mode (tournaments
// are, until issue 43 slice 5): start() logs it once. Owned by ServerState; stopped with the drain.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "core/expected.h"
#include "server/store/tournament_records.h"
#include "server/tournament/arena_schedule.h"

namespace server {

class ServerState;

// A pass runs at least this often.
inline constexpr std::chrono::seconds scheduler_interval{30};

class ArenaScheduler : public std::enable_shared_from_this<ArenaScheduler> {
public:
    ArenaScheduler(ServerState& state, tournament::ArenaSchedule schedule);

    // A pass now, then every scheduler_interval and after every jump of the time. Called once,
    // after the scheduler is shared. Nothing in cluster mode (logged).
    void start();
    // No pass from now on (one in flight finishes); the timer and the time listener are gone.
    void stop();

    // One pass: the arenas created (empty when none was due), or why the stored tournaments
    // could not be read. An arena whose creation fails is logged and left to the next pass.
    // Blocks (store reads and writes): on the blocking pool or a test's thread.
    core::Expected<std::vector<TournamentRecord>> pass();

private:
    void arm();
    // Hands a pass to the blocking pool unless one already waits there.
    void pass_soon();

    ServerState& state_;
    const tournament::ArenaSchedule schedule_;
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    boost::asio::steady_timer timer_;
    std::atomic<bool> stopped_{false};
    std::atomic<bool> queued_{false};  // a pass waits on the pool
    std::mutex pass_mutex_;            // one pass at a time
    std::mutex listener_mutex_;
    int time_listener_ = 0;  // 0: none
};

}  // namespace server
