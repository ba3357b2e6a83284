#include "core/games.h"

namespace core::chessence {

// Placeholder until the chessence rules land.
Expected<std::unique_ptr<Game>> make_game(const GameOptions&) {
    return make_error("the chessence rules are not implemented yet");
}

}  // namespace core::chessence
