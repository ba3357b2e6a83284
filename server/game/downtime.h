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
    // When no run of `runs` (oldest start first) was alive, up to `now` (when this one starts).
    // Runs may overlap (the nodes of a cluster share one store): only a span no node covered is a
    // gap.
    static Downtime from_runs(const std::vector<ServerRun>& runs, ServerTime now);
    // This downtime and [down, up) together (a span counted once even where they overlap): a
    // game taken over from a node that died is not charged for the time it had no owner.
    Downtime with_gap(ServerTime down, ServerTime up) const;
    // This downtime and `other` together (each span counted once).
    Downtime with(const Downtime& other) const;
    // The part of this downtime inside [from, to).
    Downtime within(ServerTime from, ServerTime to) const;
    bool empty() const { return gaps_.empty(); }

    // How much of [from, to) the server was down.
    std::chrono::milliseconds between(ServerTime from, ServerTime to) const;

private:
    std::vector<std::pair<ServerTime, ServerTime>> gaps_;  // [down from, up again at), disjoint
};

}  // namespace server
