#pragma once
// The Chesica evaluation: material with separate values for promoted pieces, the advance of
// unpromoted pieces towards promotion, the guard of the own back rank, mobility, and pieces the
// opponent could jump at once (forced jumps decide most Chesica games). Linear in its features,
// so the weights can be fitted to game outcomes (tools/chessence/tune).
#include <array>
#include <cstdint>
#include <string_view>

#include "core/chesica/position.h"

namespace core::engine {

enum class ChesicaFeature : std::uint8_t {
    bishops,           // unpromoted
    rooks,             // unpromoted
    queens,            // unpromoted
    promoted_bishops,  //
    promoted_rooks,    //
    promoted_queens,   //
    advancement,       // ranks advanced by the unpromoted pieces, summed
    near_promotion,    // unpromoted pieces one or two ranks from promotion
    back_rank,         // unpromoted pieces still on the own first rank
    mobility,          // moves the side would have if it were to move
    hanging            // own pieces the opponent could jump at once
};
constexpr int chesica_feature_count = 11;

std::string_view chesica_feature_name(int i);

struct ChesicaWeights {
    std::array<int, chesica_feature_count> feature{};
    int tempo = 0;
};

// The weights the engine plays with (fitted to self-play outcomes: docs/engine.md).
const ChesicaWeights& chesica_weights();

using ChesicaFeatures = std::array<int, chesica_feature_count>;
// Each feature for White (index 0) and Black, in ChesicaFeature order.
std::array<ChesicaFeatures, 2> chesica_features(const chesica::Position& p);

// The score for the side to move: sum of weight * (its feature - the opponent's) plus the tempo.
int evaluate_chesica(const chesica::Position& p, const ChesicaWeights& weights);

}  // namespace core::engine
