#pragma once
// Chesica (RULES.md §2): squares, sides, piece kinds and the sizes every other rules file relies
// on.
#include <cstdint>

#include "core/variant.h"

namespace core::chesica {

using Bitboard = std::uint64_t;
using Square = int;  // 0..63, a1 = 0, b1 = 1, ..., h8 = 63 (index = rank * 8 + file)

constexpr int board_files = 8;
constexpr int board_ranks = 8;
constexpr int square_count = 64;
constexpr int max_pieces_per_side = 12;  // the setup has 12 a side and pieces are never added
constexpr int max_chain_jumps = max_pieces_per_side;  // every jump removes one opposing piece
// House rule: this many consecutive plies without a capture end the game as a draw.
constexpr int draw_plies_without_capture = 100;

// Bishop, Rook or Queen; a Queen moves as both of the others.
enum class Kind : std::uint8_t { bishop, rook, queen };
constexpr int kind_count = 3;

constexpr int side_index(Side s) {
    return s == Side::first ? 0 : 1;
}

constexpr int file_of(Square s) {
    return s & 7;
}
constexpr int rank_of(Square s) {
    return s >> 3;
}
constexpr Square make_square(int file, int rank) {
    return rank * 8 + file;
}
constexpr Bitboard square_bb(Square s) {
    return Bitboard{1} << s;
}

// The rank an unpromoted piece of side `s` promotes on: 8 for White, 1 for Black (0-based 7 / 0).
constexpr int far_rank(Side s) {
    return s == Side::first ? 7 : 0;
}

constexpr Bitboard rank_bb(int rank) {
    return Bitboard{0xFF} << (8 * rank);
}
constexpr Bitboard file_a_bb = 0x0101010101010101ULL;
constexpr Bitboard file_h_bb = file_a_bb << 7;

// The eight directions, as (file, rank) steps. Diagonals come first.
enum class Direction : std::uint8_t { ne, nw, se, sw, n, s, e, w };
constexpr int direction_count = 8;
constexpr int diagonal_count = 4;
constexpr int file_step(Direction d) {
    constexpr int steps[] = {1, -1, 1, -1, 0, 0, 1, -1};
    return steps[static_cast<int>(d)];
}
constexpr int rank_step(Direction d) {
    constexpr int steps[] = {1, 1, -1, -1, 1, -1, 0, 0};
    return steps[static_cast<int>(d)];
}

}  // namespace core::chesica
