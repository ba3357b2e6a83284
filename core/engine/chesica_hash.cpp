#include "core/engine/chesica_hash.h"

#include <array>

#include "core/chesica/bitboard.h"

namespace core::engine {

namespace {

using namespace core::chesica;

constexpr std::uint64_t splitmix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// keys[side][kind][promoted][square], then one for Black to move.
struct Keys {
    std::array<std::array<std::array<std::array<std::uint64_t, square_count>, 2>, kind_count>, 2>
        piece{};
    std::uint64_t black_to_move = 0;
};

constexpr Keys keys = [] {
    Keys k{};
    std::uint64_t state = 0x43686573'69636121ULL;
    for (auto& side : k.piece) {
        for (auto& kind : side) {
            for (auto& mark : kind) {
                for (auto& key : mark) {
                    key = splitmix(state);
                }
            }
        }
    }
    k.black_to_move = splitmix(state);
    return k;
}();

}  // namespace

std::uint64_t chesica_hash(const Position& p) {
    std::uint64_t h = p.to_move == Side::second ? keys.black_to_move : 0;
    for (int side = 0; side < 2; ++side) {
        for (int kind = 0; kind < kind_count; ++kind) {
            const Bitboard pieces = p.by_side[side] & p.by_kind[kind];
            for (Bitboard men = pieces & ~p.promoted; men != 0;) {
                h ^= keys.piece[side][kind][0][pop_lsb(men)];
            }
            for (Bitboard kings = pieces & p.promoted; kings != 0;) {
                h ^= keys.piece[side][kind][1][pop_lsb(kings)];
            }
        }
    }
    return h;
}

}  // namespace core::engine
