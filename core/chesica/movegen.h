#pragma once
// The moves of RULES.md §2, rules 1–4: checkers-man and checkers-king jumps, chains, promotion,
// replacement captures, steps and slides. The third-occurrence ban (rule 5) lives in legal.h.
#include <cstdint>

#include "core/chesica/move.h"
#include "core/chesica/position.h"

namespace core::chesica {

// The squares of the side to move's pieces that can jump now (rule 2: then one of them must).
Bitboard jumpers(const Position& p);

// Every move of the side to move: all complete jump chains if any jump exists (a chain goes on
// while the piece can jump and stops when an unpromoted piece promotes), otherwise every step,
// slide and replacement capture.
void generate_moves(const Position& p, MoveList& list);

// The number of moves generate_moves would give, without building them.
std::uint64_t count_moves(const Position& p);

}  // namespace core::chesica
