#include "core/chesica/position.h"

#include <cassert>

namespace core::chesica {

std::optional<Piece> Position::piece_on(Square s) const {
    const Bitboard b = square_bb(s);
    if ((occupied() & b) == 0) {
        return std::nullopt;
    }
    Piece piece;
    piece.side = (by_side[0] & b) != 0 ? Side::first : Side::second;
    piece.kind = (by_kind[int(Kind::rook)] & b) != 0    ? Kind::rook
                 : (by_kind[int(Kind::queen)] & b) != 0 ? Kind::queen
                                                        : Kind::bishop;
    piece.promoted = (promoted & b) != 0;
    return piece;
}

void Position::put(Square s, Piece piece) {
    const Bitboard b = square_bb(s);
    assert((occupied() & b) == 0);
    by_side[side_index(piece.side)] |= b;
    by_kind[int(piece.kind)] |= b;
    if (piece.promoted) {
        promoted |= b;
    }
}

Position start_position() {
    Position p;
    const auto place = [&p](const char* squares, Side side, Kind kind) {
        for (const char* c = squares; *c != '\0'; c += 2) {
            p.put(make_square(c[0] - 'a', c[1] - '1'), Piece{side, kind, false});
        }
    };
    place("a1c1e1g1", Side::first, Kind::queen);
    place("b2d2f2h2", Side::first, Kind::rook);
    place("a3c3e3g3", Side::first, Kind::bishop);
    place("b6d6f6h6", Side::second, Kind::bishop);
    place("a7c7e7g7", Side::second, Kind::rook);
    place("b8d8f8h8", Side::second, Kind::queen);
    return p;
}

}  // namespace core::chesica
