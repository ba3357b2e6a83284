#pragma once
// Dealing: a small portable random source (splitmix64) and uniformly random full boards, so the
// same seed gives the same deals on every platform and compiler.
#include <cstdint>

#include "core/sniderman/position.h"

namespace core::sniderman {

// splitmix64 (Steele, Lea, Flood): every 64-bit seed is a good seed.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        state_ += 0x9E3779B97F4A7C15ull;
        std::uint64_t z = state_;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    // A uniformly distributed integer in [0, bound), bound > 0 (rejection: no modulo bias).
    std::uint64_t below(std::uint64_t bound) {
        const std::uint64_t limit = -bound % bound;  // 2^64 mod bound: values under it are rejected
        for (;;) {
            const std::uint64_t r = next();
            if (r >= limit) {
                return r % bound;
            }
        }
    }

private:
    std::uint64_t state_;
};

// A seed for an independent stream derived from `seed` and a stream number (a round index, ...).
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream);

// The 16 pieces (K Q R R B B N N per colour) shuffled uniformly onto the 16 squares, ply 1.
Position deal(Rng& rng);
Position deal(std::uint64_t seed);

}  // namespace core::sniderman
