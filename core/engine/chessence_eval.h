#pragma once
// The Chessence evaluation: a weighted sum of what each side has (men on the board and in
// reserve), what its men can do (relation powers, mobility, drops) and how safe its fixed king is.
// Linear in its features, so the weights can be fitted to game outcomes (tools/chessence/tune).
#include <array>
#include <cstdint>
#include <string_view>

#include "core/chessence/position.h"

namespace core::engine {

enum class ChessenceFeature : std::uint8_t {
    men,                 // men on the board
    reserve,             // men in reserve
    rook_powers,         // men with an orthogonal friend
    bishop_powers,       // men with a diagonal friend
    knight_powers,       // men with a friend a knight's move away
    idle_men,            // men with no power at all
    mobility,            // moves of the men (slides, leaps, captures), ignoring checks
    drop_squares,        // empty home squares while a reserve man is left
    king_pressure,       // squares next to the own king the enemy men reach
    king_shield,         // own men next to the own king
    king_exposure,       // enemy men on the own king's lines or a knight's move from it
    attackers_near_king  // own men within two squares of the enemy king
};
constexpr int chessence_feature_count = 12;

// The name of feature i ("men", ...), for the tuning tool.
std::string_view chessence_feature_name(int i);

struct ChessenceWeights {
    std::array<int, chessence_feature_count> feature{};  // centi-pawns per unit of the feature
    int tempo = 0;                                       // for the side to move
};

// The weights the engine plays with (fitted to self-play outcomes: docs/engine.md).
const ChessenceWeights& chessence_weights();

// Each feature for `colour`, in ChessenceFeature order.
using ChessenceFeatures = std::array<int, chessence_feature_count>;
std::array<ChessenceFeatures, 2> chessence_features(const chessence::Position& p);

// The score for the side to move: sum of weight * (its feature - the opponent's) plus the tempo.
int evaluate_chessence(const chessence::Position& p, const ChessenceWeights& weights);

}  // namespace core::engine
