#pragma once
// When the server was down: the gaps between its runs (store.h, ServerRun). A game's clocks are
// charged for the time that passed while they ran, less the time the server was down in it
// (game_machine.h, resume). Pure: the heartbeat (heartbeat.h) reads the runs and writes them.
#include <chrono>
#include <utility>
#include <vector>

#include "server/game/time_source.h"
#include "server/store/store.h"

namespace server {

class Downtime {
public:
    Downtime() = default;
    // The gaps between consecutive `runs` (oldest first) and between the last of them and `now`,
    // when the server starts again.
    static Downtime from_runs(const std::vector<ServerRun>& runs, ServerTime now);

    // How much of [from, to) the server was down.
    std::chrono::milliseconds between(ServerTime from, ServerTime to) const;

private:
    std::vector<std::pair<ServerTime, ServerTime>> gaps_;  // [down from, up again at)
};

}  // namespace server
