#pragma once
// What the rules' fuzz targets read first: byte 0 picks the game, byte 1 the rule set (and in
// Sniderman the object, 0 for none).
#include <cstdint>

#include "core/game.h"

namespace fuzz {

struct GameChoice {
    core::VariantId variant = core::VariantId::chessence;
    core::GameOptions options;
};

// The game and options two bytes choose.
inline GameChoice game_choice(std::uint8_t game, std::uint8_t rules) {
    GameChoice choice;
    choice.variant = static_cast<core::VariantId>(game % 3);
    choice.options.rules = rules % 2 ? core::RuleSet::strict : core::RuleSet::house;
    if (choice.variant == core::VariantId::sniderman) {
        choice.options.object = rules % 11;
    }
    return choice;
}

}  // namespace fuzz
