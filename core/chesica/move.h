#pragma once
// One Chesica move — a step or slide, a replacement capture, or a whole jump chain — and a
// fixed-capacity list of them, so move generation never allocates.
#include <array>
#include <cassert>
#include <cstdint>

#include "core/chesica/position.h"
#include "core/chesica/types.h"

namespace core::chesica {

enum class MoveType : std::uint8_t {
    step,     // to an empty square (a step, or a promoted piece's slide)
    capture,  // replacement capture: onto an opposing piece, which is removed
    jump,     // a jump chain: every jumped piece is removed
};

// Trivially constructible on purpose: a MoveList leaves its storage uninitialised.
struct Move {
    Bitboard captured;  // squares of the pieces this move removes
    std::uint8_t from;
    std::uint8_t to;  // the final square (the last landing of a chain)
    MoveType type;
    std::uint8_t jumps;                                 // landings of a chain, 0 otherwise
    std::array<std::uint8_t, max_chain_jumps> landing;  // landing squares of a chain, in order
};

// Far more than any position with at most 12 pieces a side has (the position string enforces
// that limit): steps, slides and replacement captures are at most 12 x 27 = 324; a chain jumps
// only pieces on one 3x3 grid of squares, and a searched worst case gives a piece 16 chains. A
// push beyond the capacity would be a bug of ours: it is dropped, never written out of bounds.
class MoveList {
public:
    static constexpr int capacity = 1024;

    void push(const Move& m) {
        assert(size_ < capacity);
        if (size_ < capacity) {
            moves_[size_++] = m;
        }
    }
    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const Move& operator[](int i) const { return moves_[i]; }
    Move& operator[](int i) { return moves_[i]; }
    // Keeps the first n moves.
    void truncate(int n) {
        assert(n <= size_);
        size_ = n;
    }
    const Move* begin() const { return moves_; }
    const Move* end() const { return moves_ + size_; }

private:
    int size_ = 0;
    Move moves_[capacity];
};

// Plays m (a move generate_moves produced for p) on p: removes what it captures, moves the piece,
// promotes an unpromoted piece that lands on its far rank, and advances the counters and the turn.
void make_move(Position& p, const Move& m);

}  // namespace core::chesica
