#pragma once
// Helpers for the engine tests: games from position strings, random positions reached by random
// legal moves, and a brute-force check of forced wins through core::Game (independent of the
// engine's search).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/game.h"

namespace engine_test {

inline std::unique_ptr<core::Game> game_of(core::VariantId variant, const std::string& fen,
                                           core::RuleSet rules = core::RuleSet::house) {
    core::GameOptions options;
    options.fen = fen;
    options.rules = rules;
    auto game = core::make_game(variant, options);
    EXPECT_TRUE(game.ok()) << fen << ": " << (game.ok() ? "" : game.error());
    return std::move(game.value());
}

// A game after `plies` random legal moves from the start chosen by `seed` (fewer if it ends).
inline std::unique_ptr<core::Game> random_game(core::VariantId variant, std::uint64_t seed,
                                               int plies) {
    auto game = std::move(core::make_game(variant).value());
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (int i = 0; i < plies && !game->outcome(); ++i) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        const auto legal = game->legal_moves();
        const auto played = game->play(legal[state % legal.size()]);
        EXPECT_TRUE(played.ok());
    }
    return game;
}

inline bool is_legal(const core::Game& game, const std::string& move) {
    const auto legal = game.legal_moves();
    return std::find(legal.begin(), legal.end(), move) != legal.end();
}

// Whether the side to move in `game` wins (the opponent is left without a move) within `moves`
// of its own moves against every defence; draws count as not winning.
inline bool wins_within(const core::Game& game, int moves) {
    const core::Side mover = game.to_move();
    for (const auto& move : game.legal_moves()) {
        auto child = game.clone();
        (void)child->play(move);
        if (const auto outcome = child->outcome()) {
            if (outcome->winner == mover) {
                return true;
            }
            continue;
        }
        if (moves == 1) {
            continue;
        }
        bool all_replies_lose = true;
        for (const auto& reply : child->legal_moves()) {
            auto grandchild = child->clone();
            (void)grandchild->play(reply);
            const auto outcome = grandchild->outcome();
            if (outcome ? outcome->winner != mover : !wins_within(*grandchild, moves - 1)) {
                all_replies_lose = false;
                break;
            }
        }
        if (all_replies_lose) {
            return true;
        }
    }
    return false;
}

}  // namespace engine_test
