// A placeholder until the real search lands (issue 14): a legal move chosen by the seed.
#include "core/engine/engine.h"

namespace core::engine {

Expected<SearchResult> choose_move(const Game& game, int level, const SearchLimits& limits,
                                   std::uint64_t seed) {
    (void)limits;
    if (level < min_level || level > max_level) {
        return make_error("the level must be 1 to 8");
    }
    const auto legal = game.legal_moves();
    if (legal.empty()) {
        return make_error("the game is over: no move to choose");
    }
    SearchResult result;
    result.best_move = legal[seed % legal.size()];
    result.pv = {result.best_move};
    result.nodes = legal.size();
    return result;
}

}  // namespace core::engine
