#include "core/engine/sniderman_player.h"

#include <chrono>

#include "core/engine/levels.h"
#include "core/engine/plan.h"
#include "core/sniderman/sniderman_game.h"
#include "core/sniderman/solver.h"

namespace core::engine {

Expected<SearchResult> sniderman_move(const Game& game, int level, std::uint64_t seed) {
    using namespace core::sniderman;
    const auto start = Clock::now();
    const auto* round = dynamic_cast<const SnidermanGame*>(&game);
    if (round == nullptr) {
        return make_error("not a Sniderman round");
    }
    const auto object = to_object(round->object());
    if (!object) {
        return make_error("the round has no object yet: name one first");
    }
    const MoveList captures = generate_captures(round->position());
    if (captures.size == 0) {
        return make_error("the game is over: no move to choose");
    }
    SeededRandom random(seed);
    const bool at_random =
        random.below(1000) < static_cast<std::uint32_t>(sniderman_random_permille(level));
    Move chosen =
        captures[static_cast<int>(random.below(static_cast<std::uint32_t>(captures.size)))];
    SearchResult result;
    if (!at_random) {
        Solver solver;
        const Solution solution = solver.solve(round->position(), round->history(), *object, 1);
        const bool mover_is_odd = round->position().odd_to_move();
        const bool mover_wins = solution.odd_wins == mover_is_odd;
        if (!solution.winning_moves.empty()) {
            chosen = solution.winning_moves.front();
        }
        result.nodes = solver.nodes();
        // The solver is exact: the score says only who wins with best play.
        result.score_cp = mover_wins ? 1000 : -1000;
    }
    result.best_move = move_name(chosen);
    result.pv = {result.best_move};
    result.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
    return result;
}

}  // namespace core::engine
