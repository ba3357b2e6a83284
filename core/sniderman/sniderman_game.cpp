#include "core/games.h"

namespace core::sniderman {

// Placeholder until the sniderman rules land.
Expected<std::unique_ptr<Game>> make_game(const GameOptions&) {
    return make_error("the sniderman rules are not implemented yet");
}

}  // namespace core::sniderman
