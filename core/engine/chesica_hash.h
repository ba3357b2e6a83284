#pragma once
// A Zobrist hash of a Chesica position for the transposition table: placement (side, kind,
// promotion mark) and side to move, what rule 5 compares.
#include <cstdint>

#include "core/chesica/position.h"

namespace core::engine {

std::uint64_t chesica_hash(const chesica::Position& p);

}  // namespace core::engine
