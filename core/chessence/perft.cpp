#include "core/chessence/perft.h"

#include "core/chessence/movegen.h"

namespace core::chessence {

std::uint64_t perft(const Position& p, int depth) {
    if (depth <= 0) {
        return 1;
    }
    if (depth == 1) {
        return count_legal(p);
    }
    MoveList list;
    generate_legal(p, list);
    std::uint64_t nodes = 0;
    for (const Move move : list) {
        Position next = p;
        make_move(next, move);
        nodes += perft(next, depth - 1);
    }
    return nodes;
}

}  // namespace core::chessence
