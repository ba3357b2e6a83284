#pragma once
// The matching core of the tournaments' pairings (arena_pairing.h, swiss_pairing.h): n players,
// which pairs are allowed and what each allowed pair costs → as many pairs as the allowed pairs
// permit, and among those the cheapest.
//
// Up to exact_matching_limit players every matching is tried (Boost's
// brute_force_maximum_weighted_matching); above, a maximum-cardinality matching (Boost's
// edmonds_maximum_cardinality_matching) whose partners are swapped while that lowers the cost —
// two pairs (with one player left out, or none) at a time among all pairs, three pairs at a time
// among pairs close in index: give the players in an order where close indexes are cheap to pair
// (rank order). Not boost::maximum_weighted_matching: in Boost 1.81 (Debian 12's) it crashes,
// trips its own asserts or never returns on some graphs (boostorg/graph#399, fixed by the rewrite
// of #400).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace server::tournament {

// Up to this many players, the matching is exact (every matching is tried).
inline constexpr std::size_t exact_matching_limit = 10;

// Pairs of indexes, first < second, sorted.
using Matching = std::vector<std::pair<std::size_t, std::size_t>>;
// Whether players i and j (i ≠ j) may be paired; symmetric.
using AllowedPair = std::function<bool(std::size_t, std::size_t)>;
// What pairing i with j costs (allowed pairs only); symmetric, not negative.
using PairCost = std::function<std::int64_t(std::size_t, std::size_t)>;

// A maximum-cardinality matching of `players` players over the allowed pairs, the cheapest of
// them: exactly up to exact_matching_limit players, else one no swap described above makes
// cheaper. Calls `allowed` and `cost` once per pair.
Matching cheapest_maximum_matching(std::size_t players, const AllowedPair& allowed,
                                   const PairCost& cost);

// The number of pairs of a maximum-cardinality matching over the allowed pairs (exact).
std::size_t maximum_matching_size(std::size_t players, const AllowedPair& allowed);

}  // namespace server::tournament
