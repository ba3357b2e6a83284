// The evaluation weights the engine plays with. Fitted to the outcomes of self-play games by
// `chessence tune` (logistic regression on quiet positions, docs/engine.md); the tool prints
// this table.
#include "core/engine/chesica_eval.h"
#include "core/engine/chessence_eval.h"

namespace core::engine {

const ChessenceWeights& chessence_weights() {
    // men reserve rook bishop knight idle mobility drops king_pressure shield exposure near_king
    static constexpr ChessenceWeights weights{{257, 288, 5, -8, -5, -162, 3, -20, 52, 19, -50, -71},
                                              -2};
    return weights;
}

const ChesicaWeights& chesica_weights() {
    // B R Q +B +R +Q advancement near_promotion back_rank mobility hanging
    static constexpr ChesicaWeights weights{{100, 120, 150, 250, 300, 450, 4, 20, 8, 3, -40}, 10};
    return weights;
}

}  // namespace core::engine
