#pragma once
// The server's heartbeat: at start it reads when earlier runs of the server were alive (their gaps
// are the downtime that game clocks refund, downtime.h), records its own start, and then writes
// "still alive" every `heartbeat_interval`; a clean shutdown writes the last moment. After a crash
// the last heartbeat stands for the end of the run, so a player to move gets back at most one
// interval more than the server was really down.
//
// It also watches for the time the process did not run though it was not down (a SIGSTOP, a
// starved machine): a watchdog thread looks at the steady clock every watchdog_tick, and a look
// later than pause_threshold after the one before records a pause (NodeOutages), which the rooms
// refund to their clocks like downtime (room.h, refund_outages).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "core/expected.h"
#include "server/game/downtime.h"
#include "server/game/time_source.h"
#include "server/store/run_liveness.h"
#include "server/store/store.h"

namespace server {

// At most this much time a player used before a crash is given back (issue 42: it was 5 s).
inline constexpr std::chrono::seconds heartbeat_interval{1};
// How often the pause watchdog looks, and how much later than that a look must come for the time
// in between to count as a pause of the process (a shorter pause is charged as time used).
inline constexpr std::chrono::milliseconds watchdog_tick{100};
inline constexpr std::chrono::milliseconds pause_threshold{1000};

// What this node knows of the time its games could not move though the node was not down (issue
// 42, finding 17), refunded like downtime (game_machine.h, resume). Thread-safe.
// - Pauses: the spans the process did not run, seen as a look() that comes more than
//   pause_threshold after the one before, by the steady clock and by the time source both (a
//   hand-moved time, in tests, has no pauses unless it moved too).
// - Writes that landed: the heartbeat's, every second, tell a room whose batch failed when the
//   store worked again though the room has not committed since.
// - Games a room here stopped acting for (its lease lost: Redis or the store unreachable): since
//   when the room could not play it, for the room that takes the game back on this node (when
//   Redis came back empty, the claim knows of no former owner: Leases::Claim::unowned is 0).
class NodeOutages {
public:
    // A look at the clocks: the watchdog's, or a room's before it decides anything (so a request
    // that arrives right after a pause never races the watchdog). The pause it ended, if any.
    std::optional<std::chrono::milliseconds> look(std::chrono::steady_clock::time_point steady,
                                                  ServerTime now);
    // Whether looks count (the watchdog runs): a room's look before that records nothing.
    void set_watching(bool watching);
    // Records that the process did not run in [down, up).
    void record_pause(ServerTime down, ServerTime up);
    // Every pause recorded so far, and how many were recorded (a room compares it with the count
    // it saw last).
    Downtime pauses() const;
    std::uint64_t pause_count() const;

    // A write of the heartbeat's landed at `at` (the store worked then).
    void store_worked(ServerTime at);
    // When a heartbeat's write first landed after `after`: by then a store that failed works
    // again. Nothing when none has.
    std::optional<ServerTime> store_worked_after(ServerTime after) const;

    // The room of `game_id` here stopped acting for it, unable to play it since `since`, the game
    // at `version` with the lease of `fence`.
    void stopped(const std::string& game_id, ServerTime since, std::int64_t version,
                 std::int64_t fence);
    // Since when the game could not be played, if a room here stopped acting for it and the game
    // is still as that room left it (`version`, and `fence` the store's: nobody claimed it since);
    // forgotten either way.
    std::optional<ServerTime> take_stopped(const std::string& game_id, std::int64_t version,
                                           std::int64_t fence);

private:
    struct Stopped {
        ServerTime since;
        std::int64_t version = 0;
        std::int64_t fence = 0;
    };
    // At most this many games are remembered (the oldest id goes first), and this many landed
    // writes (the oldest go first).
    static constexpr std::size_t stopped_kept = 10000;
    static constexpr std::size_t landed_kept = 64;

    mutable std::mutex mutex_;
    bool watching_ = false;
    std::optional<std::chrono::steady_clock::time_point> last_steady_;
    ServerTime last_now_{};
    Downtime pauses_;
    std::uint64_t pause_count_ = 0;
    std::deque<ServerTime> landed_;  // ascending
    std::map<std::string, Stopped, std::less<>> stopped_;
};

class Heartbeat {
public:
    Heartbeat(boost::asio::io_context& io, Store& store, const TimeSource& time);
    ~Heartbeat();

    // Reads the earlier runs and records this one (waits for the store: start-up only); then beats
    // on the io_context, and the pause watchdog starts. The downtime before now, or the error of
    // the read or the write.
    core::Expected<Downtime> start();
    // Records the last moment this run was alive and stops beating and watching (waits for the
    // store).
    void stop();
    // Records now as the last moment this run was alive and waits for the store (never on an I/O
    // thread): the harmless write by which GET /readyz learns whether the store can be written
    // (readiness.h). An error before start() or after stop().
    core::Status beat_now();
    // The pauses of this process and the games its rooms stopped playing.
    NodeOutages& outages() { return outages_; }
    // This run's start (ServerRun::started_at), which names it among the runs: 0 before start()
    // and after stop().
    std::int64_t run_started_at() const { return started_at_.load(); }

private:
    void beat();
    void watch();  // the watchdog thread
    void stop_watching();

    boost::asio::steady_timer timer_;
    Store& store_;
    const TimeSource& time_;
    std::atomic<std::int64_t> started_at_{0};  // 0: not started (or stopped)

    NodeOutages outages_;
    // Where a beat's commit reports that it landed: this heartbeat until it goes (a commit may
    // answer later).
    struct Landing {
        std::mutex mutex;
        Heartbeat* heartbeat = nullptr;
    };
    std::shared_ptr<Landing> landing_ = std::make_shared<Landing>();
    std::mutex watch_mutex_;  // guards stop_watch_
    std::condition_variable watch_wake_;
    bool stop_watch_ = false;
    std::thread watchdog_;
};

}  // namespace server
