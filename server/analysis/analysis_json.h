#pragma once
// The answer of GET /api/games/<id>/analysis once an analysis is done (docs/protocol.md, "Game
// analysis"): every move with the evaluation after it, the engine's better move and line before
// it, its judgement, and each seat's accuracy. Evaluations are from the first side's point of view
// (White; ODD in each Sniderman round). Pure.
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/engine/analysis.h"
#include "server/analysis/analysis_input.h"

namespace server {

// `positions[i][k]` is the analysis of input.lines[i].positions[k]; `nodes` the budget of each.
nlohmann::json analysis_json(
    const AnalysisInput& input,
    const std::vector<std::vector<core::engine::PositionAnalysis>>& positions, std::uint64_t nodes);

// {"cp": n}, {"mate": n} or {"result": "win"|"loss"|"draw"} (the first side's).
nlohmann::json evaluation_json(const core::engine::Evaluation& eval);

}  // namespace server
