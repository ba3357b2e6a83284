#pragma once
// What one search is asked to do (derived from the level and the limits by the engine), what it
// reports, and the small seeded generator behind a level's randomness.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/engine/budget.h"
#include "core/engine/score.h"

namespace core::engine {

struct SearchPlan {
    int max_depth = max_search_ply - 1;
    // No new iteration starts after this (the budget's deadline stops one under way).
    Clock::time_point soft_deadline = Clock::time_point::max();
    int noise_cp = 0;          // each root move's exact score gets uniform noise in [0, noise_cp)
    int blunder_permille = 0;  // chance of a uniformly random legal move instead
    std::uint64_t seed = 0;
    std::vector<std::string> search_moves;  // only these root moves (notation); empty: all
};

// One completed iteration, or the search's final answer (then `pv` starts with the move chosen).
struct SearchReport {
    int depth = 0;  // 0: no iteration completed
    int score = 0;  // for the side to move at the root (see score.h)
    std::uint64_t nodes = 0;
    std::vector<std::string> pv;
};
using ReportFn = std::function<void(const SearchReport&)>;

// splitmix64: seeded, tiny, good enough for a level's noise; the same seed gives the same moves.
class SeededRandom {
public:
    explicit SeededRandom(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n) for n > 0.
    std::uint32_t below(std::uint32_t n) {
        return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32);
    }

private:
    std::uint64_t state_;
};

}  // namespace core::engine
