#pragma once
// The shape of the board as precomputed 64-bit masks: missing squares, home (drop) squares,
// neighbour tables for the three relations, and slide rays that stop before a missing square.
#include <array>

#include "core/chessence/types.h"

namespace core::chessence {

constexpr Bitboard board_mask = (Bitboard{1} << square_count) - 1;

// a2 b3 b5 c6 d4 e5 e7 f8: symmetric under the half turn s <-> 53 - s.
constexpr Bitboard missing_squares = bit(make_square(0, 1)) | bit(make_square(1, 2)) |
                                     bit(make_square(1, 4)) | bit(make_square(2, 5)) |
                                     bit(make_square(3, 3)) | bit(make_square(4, 4)) |
                                     bit(make_square(4, 6)) | bit(make_square(5, 7));
constexpr Bitboard existing_squares = board_mask & ~missing_squares;

// The six starting squares of each side's men, which are also where it may drop.
constexpr std::array<Bitboard, 2> home_squares = {
    bit(make_square(3, 1)) | bit(make_square(3, 2)) | bit(make_square(4, 0)) |
        bit(make_square(4, 1)) | bit(make_square(4, 2)) | bit(make_square(5, 1)),
    bit(make_square(0, 7)) | bit(make_square(1, 6)) | bit(make_square(1, 7)) |
        bit(make_square(1, 8)) | bit(make_square(2, 6)) | bit(make_square(2, 7))};
constexpr std::array<Square, 2> start_king_squares = {make_square(5, 0), make_square(0, 8)};

constexpr bool is_missing(Square s) {
    return (missing_squares >> s) & 1;
}

constexpr Bitboard file_a_squares = [] {
    Bitboard b = 0;
    for (int r = 0; r < rank_count; ++r) {
        b |= bit(make_square(0, r));
    }
    return b;
}();
constexpr Bitboard not_file_a = board_mask & ~file_a_squares;
constexpr Bitboard not_file_f = board_mask & ~(file_a_squares << 5);
constexpr Bitboard not_files_ab = not_file_a & ~(file_a_squares << 1);
constexpr Bitboard not_files_ef = not_file_f & ~(file_a_squares << 4);

// Every square orthogonally next to a square of `b` (missing squares included).
constexpr Bitboard orthogonal_neighbours(Bitboard b) {
    return ((b << 6) & board_mask) | (b >> 6) | ((b & not_file_f) << 1) | ((b & not_file_a) >> 1);
}
// Every square diagonally next to a square of `b`.
constexpr Bitboard diagonal_neighbours(Bitboard b) {
    return (((b & not_file_f) << 7) & board_mask) | (((b & not_file_a) << 5) & board_mask) |
           ((b & not_file_f) >> 5) | ((b & not_file_a) >> 7);
}
// Every square a knight's move away from a square of `b`.
constexpr Bitboard knight_neighbours(Bitboard b) {
    return (((b & not_file_f) << 13) & board_mask) | (((b & not_file_a) << 11) & board_mask) |
           (((b & not_files_ef) << 8) & board_mask) | (((b & not_files_ab) << 4) & board_mask) |
           ((b & not_file_f) >> 11) | ((b & not_file_a) >> 13) | ((b & not_files_ef) >> 4) |
           ((b & not_files_ab) >> 8);
}

// Slide directions: the first four increase the square index, the last four decrease it.
enum Direction : int { north, east, north_east, north_west, south, west, south_west, south_east };
constexpr int direction_count = 8;
constexpr std::array<int, direction_count> direction_file_step = {0, 1, 1, -1, 0, -1, -1, 1};
constexpr std::array<int, direction_count> direction_rank_step = {1, 0, 1, 1, -1, 0, -1, -1};

using SquareTable = std::array<Bitboard, square_count>;

// rays[d][s]: the squares from s (exclusive) in direction d up to the edge or the first missing
// square (both exclusive).
constexpr std::array<SquareTable, direction_count> rays = [] {
    std::array<SquareTable, direction_count> table{};
    for (int d = 0; d < direction_count; ++d) {
        for (Square s = 0; s < square_count; ++s) {
            int f = file_of(s) + direction_file_step[d];
            int r = rank_of(s) + direction_rank_step[d];
            while (f >= 0 && f < file_count && r >= 0 && r < rank_count &&
                   !is_missing(make_square(f, r))) {
                table[d][s] |= bit(make_square(f, r));
                f += direction_file_step[d];
                r += direction_rank_step[d];
            }
        }
    }
    return table;
}();

// The existing squares a knight may land on from s.
constexpr SquareTable knight_targets = [] {
    SquareTable table{};
    for (Square s = 0; s < square_count; ++s) {
        table[s] = knight_neighbours(bit(s)) & existing_squares;
    }
    return table;
}();

// Every square a rook (bishop) on s could reach on an otherwise empty board.
constexpr SquareTable rook_lines = [] {
    SquareTable table{};
    for (Square s = 0; s < square_count; ++s) {
        table[s] = rays[north][s] | rays[east][s] | rays[south][s] | rays[west][s];
    }
    return table;
}();
constexpr SquareTable bishop_lines = [] {
    SquareTable table{};
    for (Square s = 0; s < square_count; ++s) {
        table[s] =
            rays[north_east][s] | rays[north_west][s] | rays[south_west][s] | rays[south_east][s];
    }
    return table;
}();

}  // namespace core::chessence
