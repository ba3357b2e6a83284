// The search instantiated for Chessence, and the typed positions of a Chessence core::Game.
#include "core/chessence/fen.h"
#include "core/engine/chessence_rules.h"
#include "core/engine/searcher_root.h"
#include "core/engine/variant_search.h"

namespace core::engine {

Expected<std::vector<chessence::Position>> chessence_history(const Game& game) {
    auto start = chessence::parse_position(game.start_fen());
    if (!start) {
        return make_error(start.error());
    }
    std::vector<chessence::Position> history{*start};
    history.reserve(game.moves().size() + 1);
    for (const std::string& text : game.moves()) {
        const auto move = chessence::parse_move(history.back(), text);
        if (!move) {
            return make_error(move.error());
        }
        history.push_back(history.back());
        chessence::make_move(history.back(), *move);
    }
    return history;
}

SearchReport search_chessence(std::span<const chessence::Position> history, RuleSet rules,
                              const SearchPlan& plan, Budget& budget, TranspositionTable& table,
                              const ReportFn& report, const ChessenceWeights* weights) {
    ChessenceRules game_rules;
    game_rules.rules = rules;
    if (weights != nullptr) {
        game_rules.weights = weights;
    }
    Searcher<ChessenceRules> searcher(game_rules, table, budget);
    return searcher.run(history, plan, report);
}

}  // namespace core::engine
