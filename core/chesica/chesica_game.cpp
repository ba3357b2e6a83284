#include "core/games.h"

namespace core::chesica {

// Placeholder until the chesica rules land.
Expected<std::unique_ptr<Game>> make_game(const GameOptions&) {
    return make_error("the chesica rules are not implemented yet");
}

}  // namespace core::chesica
