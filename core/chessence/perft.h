#pragma once
// perft: the number of leaves of the legal-move tree, the first debugging tool of the rules.
#include <cstdint>

#include "core/chessence/position.h"

namespace core::chessence {

// Leaves of the legal-move tree of `depth` plies from `p`. It counts the pure move tree: draw
// rules (repetition, 100 plies) end nothing here; a position without legal moves is a dead end.
std::uint64_t perft(const Position& p, int depth);

}  // namespace core::chessence
