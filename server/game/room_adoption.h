#pragma once
// Adoption of orphaned games (issue 42, finding 4; cluster mode): every unfinished game always has
// an owner. A node that dies while nobody watches its games leaves their leases to run out; each
// live node sweeps now and then (jittered, so the nodes do not sweep in step) for unfinished games
// whose lease is gone and loads a few of them (RoomDirectory::room: the claim, then the room, its
// clocks not charged for the time the game had no owner), so a flag falls and a first-move window
// ends on time with nobody connected, and the game is listed in the lobbies again.
// docs/architecture.md, "Cluster mode: room ownership leases".
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <boost/asio/steady_timer.hpp>

#include "core/expected.h"

namespace server {

class ServerState;

class RoomAdoption : public std::enable_shared_from_this<RoomAdoption> {
public:
    struct Options {
        // A sweep starts a random time between half of this and this after the one before.
        std::chrono::milliseconds period{5000};
        // At most this many games are adopted in one sweep (picked at random among the
        // orphans, so several live nodes share a dead node's games).
        std::size_t max_per_sweep = 32;
        // Whether this node may take games now (ServerState::fit_to_own_games); while it says why
        // not, a sweep adopts nothing. Null: always.
        std::function<core::Status()> healthy;
    };

    // Needs state.leases() (cluster mode). Nothing runs before start().
    static std::shared_ptr<RoomAdoption> make(ServerState& state, Options options);
    RoomAdoption(const RoomAdoption&) = delete;
    RoomAdoption& operator=(const RoomAdoption&) = delete;

    // Sweeps from now on: each on the blocking pool, never on an I/O thread or a strand.
    void start();
    // No sweep starts from now on; returns once the one under way (if any) has ended. Called
    // before the blocking pool and the leases go.
    void stop();

    // One sweep on the calling thread (a pool thread, or a test): the ids of the games adopted
    // (loaded here with their lease); an error when this node is unfit to take games, or the
    // store or Redis cannot be read.
    core::Expected<std::vector<std::string>> sweep();

private:
    RoomAdoption(ServerState& state, Options options);
    // Arms the timer for the next sweep (mutex_ held).
    void arm();
    // The timer went off (an I/O thread): the sweep is handed to the blocking pool.
    void on_timer();
    // A sweep on the pool, its outcome logged; then the next is armed.
    void sweep_and_rearm();
    bool stopped() const;

    ServerState& state_;
    const Options options_;
    mutable std::mutex mutex_;  // guards timer_, stopped_, running_ and failing_
    boost::asio::steady_timer timer_;
    bool stopped_ = false;
    bool running_ = false;  // a sweep is handed to the pool or under way
    bool failing_ = false;  // the last sweep failed (logged once until one works again)
    std::condition_variable idle_;
};

}  // namespace server
