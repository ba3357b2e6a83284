#pragma once
// A Chessence position: men of each colour as bitboards, the two kings, the reserves, the side to
// move, the counters of the position string and a Zobrist-style hash. A cheap copyable value.
#include <array>
#include <cstdint>

#include "core/chessence/slides.h"

namespace core::chessence {

struct Position {
    std::array<Bitboard, 2> men{};
    Bitboard kings = 0;
    std::array<std::uint8_t, 2> king{};     // the square of each colour's king
    std::array<std::uint8_t, 2> reserve{};  // men in hand, 0..3
    Colour side_to_move = Colour::white;
    std::uint32_t quiet_plies = 0;  // plies since the last capture or drop
    std::uint32_t move_number = 1;
    std::uint64_t hash = 0;  // of placement, reserves and side to move (what repetition compares)

    Bitboard occupied() const { return men[0] | men[1] | kings; }
    Bitboard own_men() const { return men[index(side_to_move)]; }
    Bitboard enemy_men() const { return men[index(other(side_to_move))]; }
};

// Whether two positions count as the same for repetition: placement, reserves, side to move.
bool same_for_repetition(const Position& a, const Position& b);

// The start position of RULES.md section 1.
Position start_position();

// The hash of placement, reserves and side to move, computed from scratch.
std::uint64_t compute_hash(const Position& position);

// Men of `men` that have a friend orthogonally / diagonally / a knight's move away: those may move
// as a rook / bishop / knight.
inline Bitboard rook_powered(Bitboard men) {
    return men & orthogonal_neighbours(men);
}
inline Bitboard bishop_powered(Bitboard men) {
    return men & diagonal_neighbours(men);
}
inline Bitboard knight_powered(Bitboard men) {
    return men & knight_neighbours(men);
}

// Whether a man of `attackers` could move onto `target` by the powers `attackers` give each other,
// with `occupied` blocking slides. Pinned men count: this is the check test.
inline bool attacked_by_men(Square target, Bitboard occupied, Bitboard attackers) {
    if ((knight_targets[target] & knight_powered(attackers)) != 0) {
        return true;
    }
    if ((rook_slides(target, occupied) & rook_powered(attackers)) != 0) {
        return true;
    }
    return (bishop_slides(target, occupied) & bishop_powered(attackers)) != 0;
}

// Whether the king of `colour` is in check.
inline bool king_in_check(const Position& p, Colour colour) {
    return attacked_by_men(p.king[index(colour)], p.occupied(), p.men[index(other(colour))]);
}
inline bool in_check(const Position& p) {
    return king_in_check(p, p.side_to_move);
}

// Plays a move generated for `p` (pseudo-legal: the caller checks the king's safety) and updates
// counters and hash.
void make_move(Position& p, Move move);

}  // namespace core::chessence
