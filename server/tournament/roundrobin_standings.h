#pragma once
// A round robin's standings (docs/tournaments.md, "Round robin"): points, then Sonneborn-Berger
// (tie_breaks.h), then rating, then starting number. A forfeit scores its winner's point but no
// Sonneborn-Berger; an unplayed game scores nothing. Withdrawn players keep their place.
#include <string>
#include <vector>

#include "server/tournament/roundrobin_state.h"
#include "server/tournament/tie_breaks.h"

namespace server::tournament {

struct RoundRobinStanding {
    std::string id;
    int rank = 0;    // 1 = the leader (every line its own rank)
    int number = 0;  // the starting number (0 before the start)
    int rating = 0;
    bool bot = false;
    bool withdrawn = false;
    int played = 0;  // games finished (forfeits and unplayed games not counted)
    TieBreaks score;
};

// Every player of `state`, best first.
std::vector<RoundRobinStanding> roundrobin_standings(const RoundRobinState& state);

}  // namespace server::tournament
