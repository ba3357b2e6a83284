#pragma once
// Each variant's factory behind core::make_game.
#include <memory>

#include "core/game.h"

namespace core::chessence {
Expected<std::unique_ptr<Game>> make_game(const GameOptions& options);
}
namespace core::chesica {
Expected<std::unique_ptr<Game>> make_game(const GameOptions& options);
}
namespace core::sniderman {
Expected<std::unique_ptr<Game>> make_game(const GameOptions& options);
}
