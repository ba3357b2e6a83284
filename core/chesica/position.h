#pragma once
// A Chesica position: who stands where (per side, per kind, promotion marks), whose turn it is and
// the counters of the position string. A cheap copyable value.
#include <array>
#include <optional>

#include "core/chesica/types.h"

namespace core::chesica {

struct Piece {
    Side side = Side::first;
    Kind kind = Kind::bishop;
    bool promoted = false;
    friend bool operator==(const Piece&, const Piece&) = default;
};

struct Position {
    std::array<Bitboard, 2> by_side{};           // indexed by side_index
    std::array<Bitboard, kind_count> by_kind{};  // indexed by Kind
    Bitboard promoted = 0;
    Side to_move = Side::first;
    int plies_without_capture = 0;
    int move_number = 1;  // starts at 1, grows after each move of the second side
    // Plies since the last capture, promotion or unpromoted advance, or since the position was
    // loaded: no earlier position can occur again (not part of the position string).
    int reversible_plies = 0;

    Bitboard occupied() const { return by_side[0] | by_side[1]; }
    Bitboard pieces(Side s) const { return by_side[side_index(s)]; }
    // Bishops and Queens: the pieces with the Bishop's powers.
    Bitboard bishop_like() const { return by_kind[int(Kind::bishop)] | by_kind[int(Kind::queen)]; }
    // Rooks and Queens: the pieces with the Rook's powers.
    Bitboard rook_like() const { return by_kind[int(Kind::rook)] | by_kind[int(Kind::queen)]; }

    std::optional<Piece> piece_on(Square s) const;
    // Puts `piece` on the empty square s.
    void put(Square s, Piece piece);
    // Same placement (with promotion marks) and side to move: what rule 5 counts.
    bool same_placement(const Position& other) const {
        return by_side == other.by_side && by_kind == other.by_kind && promoted == other.promoted &&
               to_move == other.to_move;
    }
};

// The start position of RULES.md §2.
Position start_position();

}  // namespace core::chesica
