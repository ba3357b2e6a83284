#pragma once
// Move notation of RULES.md §2: `c3-d4` (step or slide), `d2xd3` (replacement capture),
// `c3xe5xc7` (a jump chain, every landing square in order).
#include <string>
#include <string_view>
#include <vector>

#include "core/chesica/move.h"
#include "core/expected.h"

namespace core::chesica {

// "a1" .. "h8".
std::string square_name(Square s);

// The canonical notation: `x` between the squares of a capture or a jump, `-` otherwise.
std::string to_notation(const Move& m);

// The squares a move names: its start, then its target or every landing of its chain. In
// checkers geometry a landing fixes the piece jumped (the square between), so these squares
// identify a move among the legal ones.
std::vector<Square> move_squares(const Move& m);

// The squares of a move written with `-` or `x` between them (at least two squares), or an error
// saying what is wrong with the text.
Expected<std::vector<Square>> parse_move_squares(std::string_view text);

}  // namespace core::chesica
