#pragma once
// The arena's standings (docs/tournaments.md, "Standings"): points, then performance, then who
// joined first. Withdrawn and paused players keep their place. Ranks feed the pairing's cost and
// the pause rule.
#include <map>
#include <string>
#include <vector>

#include "server/tournament/arena_state.h"

namespace server::tournament {

struct Standing {
    std::string id;
    int rank = 0;  // 1 = the leader
    int points = 0;
    int performance = 0;  // the sheet's performance; the player's rating before any game counts
    int games = 0;
    bool on_fire = false;
    PlayerStatus status = PlayerStatus::active;
};

// Every player of `state`, best first.
std::vector<Standing> standings(const ArenaState& state);
// The rank of every player of `state`, by id.
std::map<std::string, int> ranks(const ArenaState& state);

}  // namespace server::tournament
