#pragma once
// The Chesica position string of RULES.md §2:
// `<rank 8>/…/<rank 1> <w|b> <plies without capture> <move number>`, `B R Q` White, `b r q` Black,
// `+` before a promoted piece, digits for runs of empty squares.
#include <string>
#include <string_view>

#include "core/chesica/position.h"
#include "core/expected.h"

namespace core::chesica {

inline constexpr std::string_view start_fen =
    "1q1q1q1q/r1r1r1r1/1b1b1b1b/8/8/B1B1B1B1/1R1R1R1R/Q1Q1Q1Q1 w 0 1";

// The position string of p; parse_fen gives p back (reversible_plies aside, which starts at 0).
std::string to_fen(const Position& p);

// Reads a position string. Only the canonical form is accepted (runs of empty squares as one
// digit, numbers without leading zeros), so every accepted string prints back unchanged. At most
// 12 pieces a side and at least one piece on the board. An error says what is wrong.
Expected<Position> parse_fen(std::string_view text);

// The position string's letter for a piece, with `+` when promoted: "Q", "+r".
std::string piece_text(const Piece& piece);

}  // namespace core::chesica
