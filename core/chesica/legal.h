#pragma once
// Rule 5 of RULES.md §2: a move may not create the third occurrence of a position in the game.
#include <span>

#include "core/chesica/move.h"
#include "core/chesica/position.h"

namespace core::chesica {

// Fewest reversible plies after which a position can occur for the third time (it must come
// back twice, and coming back takes at least four plies).
constexpr int min_plies_for_third_occurrence = 8;

// Whether `child`, reached by one move from the last position of `history`, would be the third
// occurrence of its position. `history` holds the game's positions in order, at least those since
// the last irreversible move (child.reversible_plies tells how far back to look).
bool is_third_occurrence(const Position& child, std::span<const Position> history);

// Appends to the empty `list` the moves of the last position of `history` that rules 1–5 allow.
void generate_legal_moves(std::span<const Position> history, MoveList& list);

}  // namespace core::chesica
