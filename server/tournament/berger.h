#pragma once
// FIDE's Berger tables (FIDE Handbook C.05, Annex 1) for round robins of 3 to 16 players
// (docs/tournaments.md, "Round robin"): which starting numbers meet in which round, and who has
// White. Pure.
#include <vector>

namespace server::tournament {

inline constexpr int min_round_robin_players = 3;
inline constexpr int max_round_robin_players = 16;

// One game of a table: starting numbers from 1; `first` has White (the first side).
struct BergerPair {
    int first = 0;
    int second = 0;
    friend bool operator==(const BergerPair&, const BergerPair&) = default;
};

using BergerRound = std::vector<BergerPair>;

// The Berger table for `players` (3–16; anything else gives no rounds): players − 1 rounds of
// players / 2 games for an even count. An odd count uses the table of players + 1 without the
// games of that dummy number, whose opponent rests: players rounds of (players − 1) / 2 games.
// Pairs are listed in the table's order (board 1 first).
std::vector<BergerRound> berger_table(int players);

// The whole schedule: the table, then, for a double round robin, the same rounds again with the
// colours swapped.
std::vector<BergerRound> round_robin_schedule(int players, bool double_round);

}  // namespace server::tournament
