// The search instantiated for Chesica, and the typed positions of a Chesica core::Game.
#include "core/chesica/fen.h"
#include "core/engine/chesica_rules.h"
#include "core/engine/searcher_root.h"
#include "core/engine/variant_search.h"

namespace core::engine {

Expected<std::vector<chesica::Position>> chesica_history(const Game& game) {
    auto start = chesica::parse_fen(game.start_fen());
    if (!start) {
        return make_error(start.error());
    }
    std::vector<chesica::Position> history{*start};
    history.reserve(game.moves().size() + 1);
    chesica::MoveList list;
    for (const std::string& text : game.moves()) {
        const auto squares = chesica::parse_move_squares(text);
        if (!squares) {
            return make_error(squares.error());
        }
        list.truncate(0);
        chesica::generate_legal_moves(history, list);
        const chesica::Move* found = nullptr;
        for (const chesica::Move& m : list) {
            if (chesica::move_squares(m) == *squares) {
                found = &m;
                break;
            }
        }
        if (found == nullptr) {
            return make_error("illegal move in the game: " + text);
        }
        history.push_back(history.back());
        chesica::make_move(history.back(), *found);
    }
    return history;
}

SearchReport search_chesica(std::span<const chesica::Position> history, RuleSet rules,
                            const SearchPlan& plan, Budget& budget, TranspositionTable& table,
                            const ReportFn& report, const ChesicaWeights* weights) {
    ChesicaRules game_rules;
    game_rules.rules = rules;
    if (weights != nullptr) {
        game_rules.weights = weights;
    }
    Searcher<ChesicaRules> searcher(game_rules, table, budget);
    return searcher.run(history, plan, report);
}

}  // namespace core::engine
