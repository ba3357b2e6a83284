#include "core/chesica/move.h"

namespace core::chesica {

void make_move(Position& p, const Move& m) {
    const int us = side_index(p.to_move);
    const Bitboard from = square_bb(m.from);
    const Bitboard to = square_bb(m.to);
    assert((p.by_side[us] & from) != 0);
    const Kind kind = (p.by_kind[int(Kind::rook)] & from) != 0    ? Kind::rook
                      : (p.by_kind[int(Kind::queen)] & from) != 0 ? Kind::queen
                                                                  : Kind::bishop;
    const bool was_promoted = (p.promoted & from) != 0;
    const bool promotes = !was_promoted && rank_of(m.to) == far_rank(p.to_move);

    // Captured pieces go first: a replacement capture lands where one stood, and a promoted
    // piece's chain may end on the square it started from (so `from` may equal `to`).
    p.by_side[1 - us] &= ~m.captured;
    for (auto& kind_bb : p.by_kind) {
        kind_bb &= ~m.captured;
    }
    p.promoted &= ~m.captured;
    p.by_side[us] = (p.by_side[us] & ~from) | to;
    p.by_kind[int(kind)] = (p.by_kind[int(kind)] & ~from) | to;
    if (was_promoted || promotes) {
        p.promoted = (p.promoted & ~from) | to;
    }

    const bool advances = !was_promoted && rank_of(m.to) != rank_of(m.from);
    p.plies_without_capture = m.captured != 0 ? 0 : p.plies_without_capture + 1;
    p.reversible_plies = (m.captured != 0 || promotes || advances) ? 0 : p.reversible_plies + 1;
    if (p.to_move == Side::second) {
        ++p.move_number;
    }
    p.to_move = opposite(p.to_move);
}

}  // namespace core::chesica
