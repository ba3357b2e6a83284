#pragma once
// Random playouts: uniformly random legal moves to the end of the game (the benchmark's second
// measurement, and a stress test of the rules).
#include <cstdint>
#include <optional>

#include "core/chessence/result.h"

namespace core::chessence {

// A small fast seeded generator (xorshift64*); never zero-seeded.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed == 0 ? 0x9E3779B97F4A7C15ULL : seed) {}
    std::uint64_t next() {
        state_ ^= state_ >> 12;
        state_ ^= state_ << 25;
        state_ ^= state_ >> 27;
        return state_ * 0x2545F4914F6CDD1DULL;
    }
    // Uniform in [0, n) for 0 < n < 2^32.
    std::uint32_t below(std::uint32_t n) {
        return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32);
    }

private:
    std::uint64_t state_;
};

struct PlayoutResult {
    Ending ending = Ending::none;  // none: stopped at max_plies
    std::optional<Colour> winner;
    int plies = 0;
};

// Plays random legal moves from `start` until the game ends under `rules` (house rules count
// repetitions from `start`, its first occurrence) or `max_plies` are played.
PlayoutResult random_playout(const Position& start, RuleSet rules, Rng& rng, int max_plies);

}  // namespace core::chessence
