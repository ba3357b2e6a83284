#pragma once
// The search of each game behind plain functions: the typed positions of a core::Game, and one
// search of them (the template instantiations live in the .cpp files).
#include <span>
#include <vector>

#include "core/chesica/position.h"
#include "core/chessence/position.h"
#include "core/engine/budget.h"
#include "core/engine/chesica_eval.h"
#include "core/engine/chessence_eval.h"
#include "core/engine/plan.h"
#include "core/engine/transposition.h"
#include "core/expected.h"
#include "core/game.h"

namespace core::engine {

// The game's positions from its start (or loaded) position to now, replayed in the typed code.
Expected<std::vector<chessence::Position>> chessence_history(const Game& game);
Expected<std::vector<chesica::Position>> chesica_history(const Game& game);

// One search of the last position of `history` (see Searcher::run). `weights` null: the
// engine's own.
SearchReport search_chessence(std::span<const chessence::Position> history, RuleSet rules,
                              const SearchPlan& plan, Budget& budget, TranspositionTable& table,
                              const ReportFn& report, const ChessenceWeights* weights = nullptr);
SearchReport search_chesica(std::span<const chesica::Position> history, RuleSet rules,
                            const SearchPlan& plan, Budget& budget, TranspositionTable& table,
                            const ReportFn& report, const ChesicaWeights* weights = nullptr);

}  // namespace core::engine
