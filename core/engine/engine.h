#pragma once
// The computer player's one entry point, the same for every variant: choose a move for the side to
// move at a level (1 beginner … 8 full strength) within limits. Pure computation: no I/O, no
// threads of its own; interruptible through `stop`; deterministic for a given seed and node limit.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/game.h"

namespace core::engine {

inline constexpr int min_level = 1;
inline constexpr int max_level = 8;

struct SearchLimits {
    // Time to think; zero: no time limit (then a node or depth limit should be set).
    std::chrono::milliseconds move_time{0};
    std::uint64_t max_nodes = 0;  // 0: no limit
    int max_depth = 0;            // 0: no limit
    // Set from another thread to stop at once; the best move found so far is returned.
    const std::atomic<bool>* stop = nullptr;
};

struct SearchResult {
    std::string best_move;  // canonical notation
    int depth = 0;          // the last completed iteration
    std::uint64_t nodes = 0;
    int score_cp = 0;             // from the mover's point of view, in centi-pawns
    std::optional<int> mate_in;   // moves to mate (negative: being mated), when known
    std::vector<std::string> pv;  // principal variation, best_move first
};

// A move for the side to move of `game` at `level`; an error if the game is over, the level is
// outside 1..8, or (Sniderman) the round has no object yet.
Expected<SearchResult> choose_move(const Game& game, int level, const SearchLimits& limits,
                                   std::uint64_t seed);

}  // namespace core::engine
