#include "core/engine/levels.h"

#include <array>
#include <cassert>

namespace core::engine {

namespace {

// Index: level - 1. Chessence has about 35 moves a position, Chesica about 10, so a Chesica
// level searches a few plies deeper for the same effort. The noise is in evaluation units: a man
// is worth 257 in Chessence (fitted), an unpromoted bishop 100 in Chesica.
constexpr std::array<LevelSettings, 8> chessence_levels = {{
    {1, 100, 1000, 150},
    {1, 100, 400, 40},
    {2, 100, 250, 10},
    {3, 100, 150, 0},
    {4, 100, 75, 0},
    {5, 100, 40, 0},
    {0, 50, 0, 0},
    {0, 100, 0, 0},
}};
constexpr std::array<LevelSettings, 8> chesica_levels = {{
    {1, 100, 400, 150},
    {2, 100, 150, 40},
    {3, 100, 100, 10},
    {4, 100, 60, 0},
    {6, 100, 30, 0},
    {8, 100, 15, 0},
    {0, 50, 0, 0},
    {0, 100, 0, 0},
}};

}  // namespace

LevelSettings level_settings(VariantId variant, int level) {
    assert(level >= 1 && level <= 8);
    const auto& table = variant == VariantId::chesica ? chesica_levels : chessence_levels;
    return table[static_cast<std::size_t>(level - 1)];
}

int sniderman_random_permille(int level) {
    assert(level >= 1 && level <= 8);
    constexpr std::array<int, 8> permille = {500, 350, 250, 150, 100, 60, 30, 0};
    return permille[static_cast<std::size_t>(level - 1)];
}

}  // namespace core::engine
