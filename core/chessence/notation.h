#pragma once
// Move notation: `e3-e4` (a move), `d2xb4` (a capture; `d2-b4` is accepted too), `@e1` (a drop).
#include <string>
#include <string_view>

#include "core/chessence/position.h"
#include "core/expected.h"

namespace core::chessence {

// The canonical notation of a move (captures with `x`).
std::string move_notation(Move move);

// The legal move of `p` that `text` names, or an error saying why there is none.
Expected<Move> parse_move(const Position& p, std::string_view text);

}  // namespace core::chessence
