#pragma once
// Shared helpers of the Chesica tests: games from position strings, legal-move lists, playing.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/game.h"

namespace chesica_test {

using Moves = std::vector<std::string>;

// A Chesica game from `fen` (the start position when empty); fails the test on a bad string.
inline std::unique_ptr<core::Game> game_from(const std::string& fen,
                                             core::RuleSet rules = core::RuleSet::house) {
    core::GameOptions options;
    options.rules = rules;
    if (!fen.empty()) {
        options.fen = fen;
    }
    auto game = core::make_game(core::VariantId::chesica, options);
    EXPECT_TRUE(game.ok()) << (game.ok() ? "" : game.error());
    return game.ok() ? std::move(*game) : nullptr;
}

inline Moves legal(const std::string& fen) {
    return game_from(fen)->legal_moves();
}

// Plays each move, failing the test on the first one refused.
inline void play_all(core::Game& game, const Moves& moves) {
    for (const auto& move : moves) {
        const auto played = game.play(move);
        ASSERT_TRUE(played.ok()) << move << ": " << played.error();
    }
}

inline bool contains(const Moves& moves, const std::string& move) {
    for (const auto& m : moves) {
        if (m == move) {
            return true;
        }
    }
    return false;
}

}  // namespace chesica_test
