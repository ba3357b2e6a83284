#pragma once
// Move generation: relation powers read from the position before the move, slides, knight leaps,
// drops, and the one legality rule (never leave the own king in check). Allocation-free.
#include <array>
#include <cstddef>

#include "core/chessence/position.h"

namespace core::chessence {

// Enough for any position a position string can describe: distinct (from, to) pairs number at
// most 23 * 23 on 46 squares, plus 6 drops.
constexpr int max_moves = 544;

class MoveList {
public:
    void push(Move move) {
        assert(size_ < max_moves);
        moves_[size_++] = move;
    }
    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Move operator[](int i) const { return moves_[i]; }
    Move& operator[](int i) { return moves_[i]; }
    const Move* begin() const { return moves_.data(); }
    const Move* end() const { return moves_.data() + size_; }
    void clear() { size_ = 0; }

private:
    std::array<Move, max_moves> moves_;
    int size_ = 0;
};

// What the side to move's men may do in `p`, computed once per position.
struct MoverPowers {
    Bitboard rook = 0;    // men with an orthogonal friend
    Bitboard bishop = 0;  // men with a diagonal friend
    Bitboard knight = 0;  // men with a friend a knight's move away
};

inline MoverPowers mover_powers(Bitboard own) {
    return {rook_powered(own), bishop_powered(own), knight_powered(own)};
}

// The squares the man on `from` may move to (empty squares and enemy men), by its powers.
inline Bitboard man_targets(Square from, const MoverPowers& powers, Bitboard occupied,
                            Bitboard forbidden) {
    Bitboard targets = 0;
    const Bitboard from_bit = bit(from);
    if ((powers.rook & from_bit) != 0) {
        targets |= rook_slides(from, occupied);
    }
    if ((powers.bishop & from_bit) != 0) {
        targets |= bishop_slides(from, occupied);
    }
    if ((powers.knight & from_bit) != 0) {
        targets |= knight_targets[from];
    }
    return targets & ~forbidden;
}

// Where the side to move may drop a reserve man (empty home squares), if it has one.
inline Bitboard drop_targets(const Position& p) {
    const int us = index(p.side_to_move);
    return p.reserve[us] > 0 ? home_squares[us] & ~p.occupied() : 0;
}

// Whether a move that obeys the movement rules leaves the mover's king out of check.
bool keeps_king_safe(const Position& p, Move move);

// Every move that obeys the movement rules, ignoring the king's safety.
void generate_pseudo_legal(const Position& p, MoveList& list);

// Every legal move of the side to move.
void generate_legal(const Position& p, MoveList& list);

// The number of legal moves of the side to move (bulk counting without making moves).
std::uint64_t count_legal(const Position& p);

// The legal moves of a position, counted and indexed without listing them (random playouts pick
// a move this way): the slides of all men free to move as one target set per direction, then one
// set per man for knight moves and for the men whose moves need a king-safety test, then drops.
class LegalTargets {
public:
    void fill(const Position& p);
    int total() const { return total_; }
    // The n-th legal move, 0 <= n < total(); every legal move has exactly one n.
    Move move_at(int n) const;

private:
    std::array<Bitboard, direction_count> slides_;
    std::array<std::uint8_t, square_count> from_;
    std::array<Bitboard, square_count> targets_;
    Bitboard drops_ = 0;
    Bitboard enemy_ = 0;
    Bitboard occupied_ = 0;
    int movers_ = 0;
    int total_ = 0;
};

// Whether the side to move has at least one legal move.
bool has_legal_move(const Position& p);

}  // namespace core::chessence
