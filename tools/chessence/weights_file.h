#pragma once
// Evaluation weights as text, for the tune and match tools: one line of whole numbers, the
// features in the order of the game's feature enum, then the tempo.
#include <optional>
#include <string>

#include "core/engine/chesica_eval.h"
#include "core/engine/chessence_eval.h"
#include "core/expected.h"
#include "core/variant.h"

namespace cli {

struct AnyWeights {
    std::optional<core::engine::ChessenceWeights> chessence;
    std::optional<core::engine::ChesicaWeights> chesica;
};

// Reads the weights of `variant` from the file `path`; an error says what is wrong.
core::Expected<AnyWeights> read_weights(core::VariantId variant, const std::string& path);

std::string format_weights(const core::engine::ChessenceWeights& w);
std::string format_weights(const core::engine::ChesicaWeights& w);

}  // namespace cli
