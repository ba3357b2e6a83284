#pragma once
// A Swiss's standings (docs/tournaments.md, "Swiss"): points, Sonneborn-Berger and Buchholz
// (tie_breaks.h), then the higher rating, then who joined first. Withdrawn players keep their
// place. Games in progress count nothing yet.
#include <map>
#include <string>
#include <vector>

#include "server/tournament/swiss_state.h"
#include "server/tournament/tie_breaks.h"

namespace server::tournament {

struct SwissStanding {
    std::string id;
    int rank = 0;  // 1 = the leader; every player their own
    TieBreaks tie_breaks;
    int rating = 0;
    bool bot = false;
    SwissStatus status = SwissStatus::active;
};

// Every player's sheet in tie_breaks.h's terms: a game played names its opponent; a bye scores
// 2 half points, a forfeit win 2 and an absence 0 without one.
std::map<std::string, std::vector<TieBreakGame>> swiss_sheets(const SwissState& state);
// Every player of `state`, best first.
std::vector<SwissStanding> swiss_standings(const SwissState& state);

}  // namespace server::tournament
