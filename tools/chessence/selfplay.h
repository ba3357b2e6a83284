#pragma once
// Games of the engine against itself, for the match and tuning tools: a seeded opening of a few
// random moves (a Sniderman deal and object), then each side's engine at its level.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/engine.h"
#include "core/game.h"
#include "players.h"

namespace cli {

struct SelfPlaySettings {
    core::VariantId variant = core::VariantId::chessence;
    core::RuleSet rules = core::RuleSet::house;
    core::engine::SearchLimits limits;  // for every move of both sides
    int random_plies = 2;               // random legal moves that open each game
    int max_plies = 600;                // a game still going then counts as a draw
};

struct SelfPlayGame {
    std::optional<core::Side> winner;  // empty: a draw
    std::string reason;  // the game's ending, "ply_limit", or "player_error" (then `error`)
    std::string error;
    std::vector<std::string> moves;
    std::string start_fen;
};

// Plays one game from the opening `seed` chooses; players[0] moves first. `on_position` (if set)
// sees every position after the opening in which a player is to move.
SelfPlayGame play_game(const SelfPlaySettings& settings, const std::array<Player*, 2>& players,
                       std::uint64_t seed,
                       const std::function<void(const core::Game&)>& on_position = {});

// A seed for game pair `index` of a run seeded with `seed`.
std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index);

}  // namespace cli
