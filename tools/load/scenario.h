#pragma once
// A load run (docs/performance.md): R rooms of two players playing legal moves from the server's
// own lists, N spectators per room joining `join_batch` at a time, idle connections (upgrade
// only), lobby subscribers, games against the computer (a person who moves at once, the
// computer's replies timed); then a measured window. Everything is driven from one thread.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tools/load/connection.h"
#include "tools/load/stats.h"

namespace load {

struct Options {
    // The WebSocket endpoints: one server, or a cluster's nodes, which the connections take in
    // turn (a room's White on one node, its Black on the next).
    std::vector<Target> targets;
    Target metrics;  // GET /metrics of the (first) server
    std::optional<int>
        pid;  // read CPU and memory from /proc/<pid> instead (a server without metrics)
    int rooms = 10;
    int spectators = 0;  // per room
    int join_batch = 50;
    int idle = 0;
    int lobby = 0;
    double seconds = 10;  // the measured window
    int think_ms = 0;     // 0: a player moves as soon as it is its turn (closed loop)
    int max_plies = 200;  // then the side to move resigns and a new game starts
    std::string variant = "chesica";
    int computer = 0;              // games against the computer (issue 25), each with one person
    int computer_level = 8;        // their level, 1..8
    bool spread_addresses = true;  // X-Forwarded-For 10.x.y.z per connection
    unsigned seed = 1;
    std::chrono::seconds setup_timeout{120};
};

struct Report {
    bool setup_complete = false;
    std::string failure;  // why the setup did not complete
    double seconds = 0;   // the measured window as it was
    std::uint64_t moves = 0;
    Latencies ack;             // a move sent -> its ack at the mover
    Latencies opponent;        // a move sent -> its event at the opponent
    Latencies last_spectator;  // a move sent -> its event at the last spectator of the room
    std::optional<double> cpu_us_per_move;
    std::optional<double> idle_bytes_each;
    std::size_t connections = 0;       // opened in all
    std::size_t connections_open = 0;  // still open at the end
    std::size_t players_open = 0;
    std::size_t players = 0;
    double lobby_frames_each = 0;  // frames each lobby subscriber received during the window
    // Frames the spectators received from the first join until a second after the last (the
    // snapshots, the spectator counts and presence; moves too when the players move meanwhile).
    std::uint64_t spectator_frames_joining = 0;
    std::uint64_t games_finished = 0;
    // A person's move sent -> the computer's reply arriving (its thinking, its wait for a bot
    // thread and the way through the room), in the games against the computer.
    Latencies computer_reply;
    std::uint64_t computer_games_finished = 0;
    std::map<std::string, std::uint64_t> errors;  // error frames by code
};

Report run(const Options& options);

}  // namespace load
