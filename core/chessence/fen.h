#pragma once
// The position string of RULES.md section 1:
//   <rank 9>/<rank 8>/.../<rank 1>[<reserves>] <w|b> <plies without capture or drop> <move number>
// Only the canonical form is accepted, so every accepted string prints back unchanged.
#include <string>
#include <string_view>

#include "core/chessence/position.h"
#include "core/expected.h"

namespace core::chessence {

constexpr std::string_view start_position_string =
    "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w 0 1";

// Reads a position string; a malformed one gives an error naming what is wrong and where.
Expected<Position> parse_position(std::string_view text);

// Writes the position string of `p`.
std::string position_string(const Position& p);

// "a1" .. "f9" (missing squares too).
std::string square_name(Square s);

}  // namespace core::chessence
