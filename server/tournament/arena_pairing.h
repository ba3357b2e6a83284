#pragma once
// One pairing pass of an arena (docs/tournaments.md, "Pairing"): the players who wait, ranked,
// become pairs with their seats. Never the two who just played each other (unless the options
// allow it: they are the only two), never a pair where either would get a third game in a row on
// the same side. Among the allowed pairs, as many pairs as possible, and among those the cheapest
// (lichess's cost), in rank groups of at most 100 players beyond 100; in the first seconds of an
// arena, rating order instead. A player left over waits for the next pass.
//
// The matching is matching.h's: exact up to exact_matching_limit players, cost-lowering swaps of
// partners above. (Not boost::maximum_weighted_matching: in Boost 1.81 it crashes, trips its own
// asserts or never returns on about one pass in 500 of 40–100 players here; see matching.h.)
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/variant.h"
#include "server/tournament/matching.h"

namespace server::tournament {

// No one plays a third game in a row on the same side.
inline constexpr int max_same_side_in_a_row = 2;
// Beyond this many waiting players, the matching runs in groups of consecutive ranks.
inline constexpr std::size_t max_matching_group = 100;
// The cost of a pair: |rank difference| × (rank_factor_low + rank_factor_span × (maxRank −
// min(rankA, rankB)) / maxRank) + |rating difference| (lichess's).
inline constexpr std::int64_t rank_factor_low = 300;
inline constexpr std::int64_t rank_factor_span = 1700;

// The sides a player has had, as the pairing needs them.
struct SideHistory {
    int firsts_in_a_row = 0;   // games in a row on the first side (White, ODD), the last included
    int seconds_in_a_row = 0;  // the same on the second side
    int balance = 0;           // games on the first side minus games on the second
};
// The history of `sides`, oldest first.
SideHistory side_history(const std::vector<core::Side>& sides);

// A waiting player as a pairing pass sees them.
struct Candidate {
    std::string id;
    int rank = 0;  // place in the standings, 1 = the leader
    int rating = 0;
    SideHistory sides;
    std::optional<std::string> last_opponent;
};

struct Pair {
    std::string first;  // plays the first side (White, or the first seat in Sniderman)
    std::string second;
    friend bool operator==(const Pair&, const Pair&) = default;
};

struct PairingOptions {
    bool rating_order = false;     // the first seconds: 1–2, 3–4, … by rating
    bool rematch_allowed = false;  // the two waiting are the only two who could play
};

// Whether `a` and `b` may play each other now.
bool may_pair(const Candidate& a, const Candidate& b, bool rematch_allowed);
// The cost of pairing `a` with `b` when the worst rank among those matched together is `max_rank`.
std::int64_t pair_cost(const Candidate& a, const Candidate& b, int max_rank);
// Who of `a` and `b` gets the first side: the one with fewer first sides in a row; then the one
// with more second sides in a row; then the one with the lower balance; then the lower placed.
Pair seat(const Candidate& a, const Candidate& b);
// The sizes of the groups the matching cuts `waiting` players (in rank order) into: one group up to
// max_matching_group, else the fewest groups of at most that many, as equal as possible, all of
// even size but the last.
std::vector<std::size_t> group_sizes(std::size_t waiting);

// The pass over `waiting` (any order; ids unique): the pairs, best placed first.
std::vector<Pair> pair_waiting(std::vector<Candidate> waiting, const PairingOptions& options);

// As many pairs of `group` as the allowed pairs permit, the cheapest of them (exactly up to
// exact_matching_limit players, else no single swap of partners is cheaper), as indexes into
// `group` (first < second); exposed for tests.
std::vector<std::pair<std::size_t, std::size_t>> match_group(const std::vector<Candidate>& group,
                                                             bool rematch_allowed);

}  // namespace server::tournament
