#pragma once
// Precomputed 8×8 tables: one-step neighbours, jump squares and sliding rays per direction, and
// the bit tricks the move generator is built from.
#include <array>
#include <bit>

#include "core/chesica/types.h"

namespace core::chesica {

constexpr Square no_square = -1;

namespace detail {

constexpr Square offset_square(Square s, Direction d, int distance) {
    const int f = file_of(s) + file_step(d) * distance;
    const int r = rank_of(s) + rank_step(d) * distance;
    return (f < 0 || f >= board_files || r < 0 || r >= board_ranks) ? no_square : make_square(f, r);
}

template <int Distance>
constexpr auto make_offset_table() {
    std::array<std::array<std::int8_t, direction_count>, square_count> table{};
    for (Square s = 0; s < square_count; ++s) {
        for (int d = 0; d < direction_count; ++d) {
            table[s][d] = static_cast<std::int8_t>(offset_square(s, Direction(d), Distance));
        }
    }
    return table;
}

constexpr auto make_ray_table() {
    std::array<std::array<Bitboard, direction_count>, square_count> table{};
    for (Square s = 0; s < square_count; ++s) {
        for (int d = 0; d < direction_count; ++d) {
            for (int k = 1; offset_square(s, Direction(d), k) != no_square; ++k) {
                table[s][d] |= square_bb(offset_square(s, Direction(d), k));
            }
        }
    }
    return table;
}

}  // namespace detail

// neighbour[s][d]: the square one step from s in direction d, or no_square off the board.
inline constexpr auto neighbour = detail::make_offset_table<1>();
// jump_landing[s][d]: the square two steps away (a jump over neighbour[s][d] lands there).
inline constexpr auto jump_landing = detail::make_offset_table<2>();
// ray[s][d]: every square from s (exclusive) to the board's edge in direction d.
inline constexpr auto ray = detail::make_ray_table();

constexpr bool is_ascending(Direction d) {
    return d == Direction::ne || d == Direction::nw || d == Direction::n || d == Direction::e;
}

// The squares a slider on s reaches in direction d: empty squares up to and including the first
// occupied one.
constexpr Bitboard slide_targets(Square s, Direction d, Bitboard occupied) {
    const int di = static_cast<int>(d);
    Bitboard targets = ray[s][di];
    const Bitboard blockers = targets & occupied;
    if (blockers != 0) {
        const Square first =
            is_ascending(d) ? std::countr_zero(blockers) : 63 - std::countl_zero(blockers);
        targets ^= ray[first][di];
    }
    return targets;
}

// Every square of `b` moved one step in direction d (squares leaving the board are dropped).
constexpr Bitboard shift(Bitboard b, Direction d) {
    switch (d) {
        case Direction::ne:
            return (b & ~file_h_bb) << 9;
        case Direction::nw:
            return (b & ~file_a_bb) << 7;
        case Direction::se:
            return (b & ~file_h_bb) >> 7;
        case Direction::sw:
            return (b & ~file_a_bb) >> 9;
        case Direction::n:
            return b << 8;
        case Direction::s:
            return b >> 8;
        case Direction::e:
            return (b & ~file_h_bb) << 1;
        case Direction::w:
            return (b & ~file_a_bb) >> 1;
    }
    return 0;
}

constexpr Direction opposite(Direction d) {
    constexpr Direction opposites[] = {Direction::sw, Direction::se, Direction::nw, Direction::ne,
                                       Direction::s,  Direction::n,  Direction::w,  Direction::e};
    return opposites[static_cast<int>(d)];
}

// The two diagonal directions an unpromoted piece of side s moves in.
constexpr std::array<Direction, 2> forward_diagonals(Side s) {
    return s == Side::first ? std::array{Direction::ne, Direction::nw}
                            : std::array{Direction::se, Direction::sw};
}

constexpr Direction forward(Side s) {
    return s == Side::first ? Direction::n : Direction::s;
}

constexpr Square pop_lsb(Bitboard& b) {
    const Square s = std::countr_zero(b);
    b &= b - 1;
    return s;
}

}  // namespace core::chesica
