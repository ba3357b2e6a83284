#pragma once
// Chess movement on the 4x4 board: the squares each piece attacks, sliders stopping at the first
// occupied square (which they attack).
#include <array>
#include <bit>
#include <cstdint>

#include "core/sniderman/types.h"

namespace core::sniderman {

namespace detail {

struct Step {
    int file;
    int rank;
};

// Directions 0..3 increase the square index (N, E, NE, NW), 4..7 decrease it (S, W, SW, SE).
constexpr std::array<Step, 8> directions = {
    {{0, 1}, {1, 0}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}}};
constexpr std::array<Step, 8> knight_steps = {
    {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}};

constexpr bool on_board(int file, int rank) {
    return file >= 0 && file < board_files && rank >= 0 && rank < board_files;
}

constexpr std::array<std::array<Bitboard, square_count>, 8> make_rays() {
    std::array<std::array<Bitboard, square_count>, 8> rays{};
    for (int d = 0; d < 8; ++d) {
        for (Square s = 0; s < square_count; ++s) {
            int f = file_of(s) + directions[d].file;
            int r = rank_of(s) + directions[d].rank;
            while (on_board(f, r)) {
                rays[d][s] |= square_bit(make_square(f, r));
                f += directions[d].file;
                r += directions[d].rank;
            }
        }
    }
    return rays;
}

constexpr std::array<Bitboard, square_count> make_leaper(const std::array<Step, 8>& steps) {
    std::array<Bitboard, square_count> table{};
    for (Square s = 0; s < square_count; ++s) {
        for (const auto& step : steps) {
            const int f = file_of(s) + step.file;
            const int r = rank_of(s) + step.rank;
            if (on_board(f, r)) {
                table[s] |= square_bit(make_square(f, r));
            }
        }
    }
    return table;
}

inline constexpr auto rays = make_rays();
inline constexpr auto king_table = make_leaper(directions);
inline constexpr auto knight_table = make_leaper(knight_steps);

// The squares along direction d from s up to and including the first occupied one.
constexpr Bitboard ray_attacks(int d, Square s, Bitboard occupied) {
    const Bitboard ray = rays[d][s];
    const unsigned blockers = ray & occupied;
    if (blockers == 0) {
        return ray;
    }
    const int first = d < 4 ? std::countr_zero(blockers) : std::bit_width(blockers) - 1;
    return static_cast<Bitboard>(ray & ~rays[d][first]);
}

}  // namespace detail

constexpr Bitboard rook_attacks(Square s, Bitboard occupied) {
    return static_cast<Bitboard>(
        detail::ray_attacks(0, s, occupied) | detail::ray_attacks(1, s, occupied) |
        detail::ray_attacks(4, s, occupied) | detail::ray_attacks(5, s, occupied));
}

constexpr Bitboard bishop_attacks(Square s, Bitboard occupied) {
    return static_cast<Bitboard>(
        detail::ray_attacks(2, s, occupied) | detail::ray_attacks(3, s, occupied) |
        detail::ray_attacks(6, s, occupied) | detail::ray_attacks(7, s, occupied));
}

// The squares a piece of kind k on s attacks when `occupied` holds every piece.
constexpr Bitboard attacks(Kind k, Square s, Bitboard occupied) {
    switch (k) {
        case Kind::king:
            return detail::king_table[s];
        case Kind::queen:
            return static_cast<Bitboard>(rook_attacks(s, occupied) | bishop_attacks(s, occupied));
        case Kind::rook:
            return rook_attacks(s, occupied);
        case Kind::bishop:
            return bishop_attacks(s, occupied);
        case Kind::knight:
            return detail::knight_table[s];
    }
    return 0;
}

// The same squares as attacks(), from small tables: per kind and square, the occupancy of the
// squares that can block the piece is hashed by a multiply ("magic" hashing, as chess engines do
// on 8x8) into a slot holding the attack set. No branches, about 5 KB of tables.
class AttackTable {
public:
    AttackTable();

    Bitboard operator()(Kind k, Square s, Bitboard occupied) const {
        const Entry& e = entries_[static_cast<std::size_t>(k)][static_cast<std::size_t>(s)];
        const std::uint64_t index = ((occupied & e.mask) * e.magic) >> e.shift;
        return slots_[e.offset + static_cast<std::size_t>(index)];
    }

private:
    struct Entry {
        std::uint64_t magic = 0;
        std::uint32_t mask = 0;    // the squares that can block (none for kings and knights)
        std::uint32_t shift = 63;  // 64 - index bits
        std::size_t offset = 0;    // where this square's slots start
    };
    std::array<std::array<Entry, square_count>, 6> entries_{};  // by Kind (index 0 unused)
    std::array<Bitboard, 4096> slots_{};
};

inline const AttackTable attack_table;

}  // namespace core::sniderman
