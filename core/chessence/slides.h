#pragma once
// Slides over the board: one man's rays cut at the first occupied square, and the slides of a
// whole set of men in one direction at once.
#include "core/chessence/board_geometry.h"

namespace core::chessence {

constexpr int opposite(int d) {
    return (d + 4) % direction_count;
}

// Every square one step in direction D from a square of `b` (missing squares included).
template <int D>
constexpr Bitboard shift(Bitboard b) {
    if constexpr (D == north) {
        return (b << 6) & board_mask;
    } else if constexpr (D == east) {
        return (b & not_file_f) << 1;
    } else if constexpr (D == north_east) {
        return ((b & not_file_f) << 7) & board_mask;
    } else if constexpr (D == north_west) {
        return ((b & not_file_a) << 5) & board_mask;
    } else if constexpr (D == south) {
        return b >> 6;
    } else if constexpr (D == west) {
        return (b & not_file_a) >> 1;
    } else if constexpr (D == south_west) {
        return (b & not_file_a) >> 7;
    } else {
        return (b & not_file_f) >> 5;
    }
}

// What all men of `sources` reach sliding in direction D at once: the empty squares passed and
// a capturable man first in line. Each square comes from exactly one source (the nearest behind
// it), so the count of the set is the count of moves. A Kogge-Stone fill: no empty run on this
// board is longer than 6 squares, so steps of 1, 2 and 4 cover every slide.
template <int D>
inline Bitboard slide_set(Bitboard sources, Bitboard empty, Bitboard capturable) {
    constexpr int step = D == north || D == south             ? 6
                         : D == east || D == west             ? 1
                         : D == north_east || D == south_west ? 7
                                                              : 5;
    constexpr bool up = D < 4;
    // Squares a slide may pass in direction D: empty, and not where a step would wrap around.
    constexpr Bitboard no_wrap = (D == east || D == north_east || D == south_east)   ? not_file_a
                                 : (D == west || D == north_west || D == south_west) ? not_file_f
                                                                                     : board_mask;
    auto by = [](Bitboard b, int steps) {
        return up ? (b << (step * steps)) & board_mask : b >> (step * steps);
    };
    Bitboard gen = sources;
    Bitboard pass = empty & no_wrap;
    gen |= pass & by(gen, 1);
    pass &= by(pass, 1);
    gen |= pass & by(gen, 2);
    pass &= by(pass, 2);
    gen |= pass & by(gen, 4);
    return (gen & ~sources) | (shift<D>(gen) & capturable);
}

// The squares of ray D from s up to and including the first occupied square.
template <int D>
inline Bitboard slide(Square s, Bitboard occupied) {
    Bitboard ray = rays[D][s];
    const Bitboard blockers = ray & occupied;
    if (blockers != 0) {
        ray ^= rays[D][D < 4 ? lowest(blockers) : highest(blockers)];
    }
    return ray;
}

inline Bitboard rook_slides(Square s, Bitboard occupied) {
    return slide<north>(s, occupied) | slide<east>(s, occupied) | slide<south>(s, occupied) |
           slide<west>(s, occupied);
}
inline Bitboard bishop_slides(Square s, Bitboard occupied) {
    return slide<north_east>(s, occupied) | slide<north_west>(s, occupied) |
           slide<south_west>(s, occupied) | slide<south_east>(s, occupied);
}

}  // namespace core::chessence
