#include "server/analysis/analysis_json.h"

#include <cmath>
#include <map>

namespace server {

using nlohmann::json;

namespace {

namespace engine = core::engine;

// One decimal is all a person reads.
double tenths(double value) {
    return std::round(value * 10) / 10;
}

json judgement_json(engine::Judgement judgement) {
    return judgement == engine::Judgement::none ? json(nullptr)
                                                : json(engine::judgement_name(judgement));
}

// The seat that played `side` in `line`.
const std::string& seat_of(const AnalysedLine& line, core::Side side) {
    return line.seats[side == core::Side::first ? 0 : 1];
}

}  // namespace

json evaluation_json(const engine::Evaluation& eval) {
    switch (eval.kind) {
        case engine::Evaluation::Kind::cp:
            return {{"cp", eval.value}};
        case engine::Evaluation::Kind::mate:
            return {{"mate", eval.value}};
        case engine::Evaluation::Kind::result:
            break;
    }
    return {{"result", eval.value > 0 ? "win" : eval.value < 0 ? "loss" : "draw"}};
}

json analysis_json(const AnalysisInput& input,
                   const std::vector<std::vector<engine::PositionAnalysis>>& positions,
                   std::uint64_t nodes) {
    const bool sniderman = input.variant == core::VariantId::sniderman;
    json plies = json::array();
    json rounds = json::array();
    json start = nullptr;
    std::map<std::string, std::vector<double>> accuracies;  // by seat
    for (std::size_t i = 0; i < input.lines.size() && i < positions.size(); ++i) {
        const auto& line = input.lines[i];
        const auto& analysed = positions[i];
        if (analysed.empty()) {
            continue;
        }
        const json line_start = {
            {"eval", evaluation_json(analysed.front().eval)},
            {"win",
             tenths(engine::win_percent(input.variant, analysed.front().eval, core::Side::first))}};
        if (sniderman) {
            rounds.push_back({{"round", line.round},
                              {"fen", line.start_fen},
                              {"object", line.object},
                              {"odd", line.seats[0]},
                              {"even", line.seats[1]},
                              {"start", line_start}});
        } else {
            start = line_start;
        }
        for (const auto& move : engine::judge_moves(input.variant, line.moves, analysed)) {
            const auto& seat = seat_of(line, move.mover);
            accuracies[seat].push_back(move.accuracy);
            json ply = {{"ply", move.ply},
                        {"move", move.move},
                        {"by", seat},
                        {"eval", evaluation_json(move.eval)},
                        {"win", tenths(move.win)},
                        {"best", move.best},
                        {"pv", move.pv},
                        {"judgement", judgement_json(move.judgement)}};
            if (sniderman) {
                ply["round"] = line.round;
            }
            plies.push_back(std::move(ply));
        }
    }
    json accuracy = json::object();
    const std::vector<std::string> seats = sniderman
                                               ? std::vector<std::string>{"player0", "player1"}
                                               : std::vector<std::string>{"white", "black"};
    for (const auto& seat : seats) {
        const auto side = engine::game_accuracy(accuracies[seat]);
        accuracy[seat] = side ? json(tenths(*side)) : json(nullptr);
    }
    json body = {{"status", "done"},
                 {"game_id", input.game_id},
                 {"variant", core::variant_name(input.variant)},
                 {"plies", std::move(plies)},
                 {"accuracy", std::move(accuracy)}};
    if (sniderman) {
        body["exact"] = true;
        body["rounds"] = std::move(rounds);
    } else {
        body["nodes"] = nodes;
        body["start"] = std::move(start);
    }
    return body;
}

}  // namespace server
