#pragma once
// One round's pairing of a Swiss (docs/tournaments.md, "Swiss"): the players present, in score
// order, become pairs with their seats, and an odd one out gets the bye.
//
// Absolute (never broken): no two players meet twice; nobody gets a second bye (a player who had
// a bye or a forfeit win is not eligible); nobody gets a third game in a row on one side, nor a
// difference of more than 2 between their games on each side. Then, in this order: the bye to the
// lowest ranked eligible player (for whom the others can still all be paired); score differences
// as small as possible (the square of a pair's difference, dominating); within a score group the
// top half meets the bottom half (Dutch: S1 against S2), the lowest of a group floating down to
// the highest of the next; colour preferences met where possible. One minimum-cost perfect
// matching over those costs (matching.h).
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/variant.h"
#include "server/tournament/arena_pairing.h"

namespace server::tournament {

// No player's games on one side outnumber those on the other by more than this.
inline constexpr int max_side_difference = 2;

// A player to pair as the pairing sees them.
struct SwissCandidate {
    std::string id;
    int half_points = 0;
    int rating = 0;
    int joined = 0;                 // order of joining: the last key of the score order
    std::vector<core::Side> sides;  // the sides of the games played over the board, oldest first
    std::set<std::string> met;      // everyone they were paired with
    bool bye_eligible = true;       // no bye and no forfeit win yet
};

struct SwissPairing {
    std::vector<Pair> pairs;  // seated, best placed first
    std::optional<std::string> bye;
    friend bool operator==(const SwissPairing&, const SwissPairing&) = default;
};

// `players` in score order: more half points, then higher rating, then joined earlier, then id.
std::vector<SwissCandidate> swiss_score_order(std::vector<SwissCandidate> players);
// Whether `player` may take `side` in their next game (no third in a row, difference ≤ 2).
bool side_allowed(const SwissCandidate& player, core::Side side);
// Whether `a` and `b` may meet: never met, and one of the two seatings keeps both sides allowed.
bool swiss_may_pair(const SwissCandidate& a, const SwissCandidate& b);
// The seats of `a` (ranked above `b`) and `b`: the one with the stronger colour preference (the
// lower balance, then the one who had the second side last) gets the first side, else the higher
// ranked gets their own preference (the first side when they have none); never a seating that
// breaks side_allowed when the other keeps it.
Pair swiss_seat(const SwissCandidate& a, const SwissCandidate& b);

// The round's pairing of `players` (ids unique, any order): every one of them paired or given the
// bye; nothing when no pairing keeps the absolute criteria.
std::optional<SwissPairing> pair_swiss_round(std::vector<SwissCandidate> players);

}  // namespace server::tournament
