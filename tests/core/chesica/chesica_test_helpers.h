#pragma once
// Shared helpers of the Chesica tests: games from position strings, legal-move lists, playing.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/chesica/legal.h"
#include "core/chesica/movegen.h"
#include "core/chesica/perft.h"
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

// Positions of seeded random games from the start (every legal move equally likely), so the
// properties can be checked on chains, promotions and promoted pieces too.
inline std::vector<core::chesica::Position> random_game_positions(int games) {
    using namespace core::chesica;
    std::vector<Position> positions;
    std::uint64_t state = 0x2545F4914F6CDD1DULL;
    for (int g = 0; g < games; ++g) {
        std::vector<Position> history{start_position()};
        while (history.size() < 400) {
            MoveList list;
            generate_legal_moves(history, list);
            if (list.empty() || drawn_by_house_rule(history.back(), core::RuleSet::house)) {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            Position next = history.back();
            make_move(next,
                      list[static_cast<int>(state % static_cast<std::uint64_t>(list.size()))]);
            history.push_back(next);
        }
        positions.insert(positions.end(), history.begin(), history.end());
    }
    return positions;
}

}  // namespace chesica_test
