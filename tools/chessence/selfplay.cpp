#include "selfplay.h"

#include "core/engine/plan.h"
#include "core/sniderman/deal.h"
#include "core/sniderman/position.h"

namespace cli {

namespace {

// The game before the engines play: a Sniderman deal with its object, or the start position
// followed by `random_plies` random legal moves.
std::unique_ptr<core::Game> opening(const SelfPlaySettings& settings, std::uint64_t seed) {
    core::engine::SeededRandom random(seed);
    core::GameOptions options;
    options.rules = settings.rules;
    if (settings.variant == core::VariantId::sniderman) {
        options.fen = core::sniderman::format_position(core::sniderman::deal(random.next()));
        options.object = 1 + static_cast<int>(random.next() % 10);
    }
    auto game = std::move(core::make_game(settings.variant, options).value());
    if (settings.variant == core::VariantId::sniderman) {
        return game;
    }
    for (int ply = 0; ply < settings.random_plies && !game->outcome(); ++ply) {
        const auto legal = game->legal_moves();
        (void)game->play(legal[random.next() % legal.size()]);
    }
    return game;
}

}  // namespace

std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index) {
    return core::sniderman::derive_seed(seed, index);
}

SelfPlayGame play_game(const SelfPlaySettings& settings, const std::array<Player*, 2>& players,
                       std::uint64_t seed,
                       const std::function<void(const core::Game&)>& on_position) {
    auto game = opening(settings, seed);
    SelfPlayGame result;
    result.start_fen = game->start_fen();
    for (Player* player : players) {
        player->new_game();
    }
    std::uint64_t move_seed = seed;
    while (!game->outcome()) {
        if (static_cast<int>(game->moves().size()) >= settings.max_plies) {
            result.reason = "ply_limit";
            result.moves = game->moves();
            return result;
        }
        if (on_position) {
            on_position(*game);
        }
        Player* player = players[game->to_move() == core::Side::first ? 0 : 1];
        move_seed = core::sniderman::derive_seed(move_seed, game->moves().size());
        const auto chosen = player->choose(*game, settings.limits, move_seed);
        const auto played =
            chosen ? game->play(*chosen) : core::Expected<std::string>(chosen.error());
        if (!played) {
            result.reason = "player_error";
            result.error = (chosen ? "'" + *chosen + "': " : "") + played.error();
            result.moves = game->moves();
            return result;
        }
    }
    const auto outcome = *game->outcome();
    result.winner = outcome.winner;
    result.reason = outcome.reason;
    result.moves = game->moves();
    return result;
}

}  // namespace cli
