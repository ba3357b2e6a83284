#pragma once
// perft: the number of leaves of the legal-move tree, the first tool for checking move generation.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/chesica/move.h"
#include "core/chesica/position.h"

namespace core::chesica {

// Whether the game is over at p for a reason other than a lack of moves: under house rules,
// 100 plies without a capture (the position then has no legal moves).
constexpr bool drawn_by_house_rule(const Position& p, RuleSet rules) {
    return rules == RuleSet::house && p.plies_without_capture >= draw_plies_without_capture;
}

// Leaves of the legal-move tree `depth` plies deep from the last position of `history` (a whole
// jump chain is one move). Rule 5 sees the whole of `history`; under house rules a position with
// 100 plies without a capture is a finished game and has no moves.
std::uint64_t perft(std::span<const Position> history, int depth, RuleSet rules);

// perft(depth - 1) after each legal move of the last position of `history`, in generation order.
std::vector<std::pair<Move, std::uint64_t>> divide(std::span<const Position> history, int depth,
                                                   RuleSet rules);

}  // namespace core::chesica
