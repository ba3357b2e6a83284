#pragma once
// Sniderman's computer player: the exact solver (core/sniderman/solver.h) picks a capture that
// wins against every defence under the round's object, if one exists; below level 8 the player
// now and then takes a random capture instead.
#include <cstdint>

#include "core/engine/engine.h"

namespace core::engine {

// A capture for the side to move of the Sniderman round `game` (not over, object chosen).
Expected<SearchResult> sniderman_move(const Game& game, int level, std::uint64_t seed);

}  // namespace core::engine
