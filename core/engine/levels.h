#pragma once
// The eight levels, as lichess offers for Stockfish: the lower ones search less deep, use less of
// the time (and of a node limit) and pick their move with noise (and now and then at random) so
// that a beginner can win; level 8 is the full search within the limits. The ladder is measured in
// docs/engine.md.
#include <cstdint>

#include "core/variant.h"

namespace core::engine {

struct LevelSettings {
    int max_depth = 0;         // plies; 0: no limit
    int time_percent = 100;    // the share of the move time and of the node limit the level uses
    int noise_cp = 0;          // root scores get uniform noise in [0, noise_cp) (0: none)
    int blunder_permille = 0;  // chance of a uniformly random legal move
};

// The settings of `level` (1..8) in `variant` (Chessence and Chesica; Sniderman: sniderman_
// random_permille).
LevelSettings level_settings(VariantId variant, int level);

// Sniderman: the chance (per mille) that `level` plays a random capture instead of the solver's
// choice; 0 at level 8.
int sniderman_random_permille(int level);

}  // namespace core::engine
