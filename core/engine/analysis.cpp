#include "core/engine/analysis.h"

#include "core/engine/engine.h"
#include "core/engine/transposition.h"
#include "core/sniderman/sniderman_game.h"
#include "core/sniderman/solver.h"

namespace core::engine {

namespace {

// A table per position: enough for the default budget (200,000 nodes fill about a fifth of it).
constexpr std::size_t analysis_hash_megabytes = 4;
// The solver's table for a full deal (32 MB, the fastest there) and for smaller positions (2 MB,
// which their whole proofs fit in; allocating and clearing 32 MB would cost more than the solve).
constexpr int solver_bits_full = 19;
constexpr int solver_bits_small = 15;
constexpr int solver_small_below_pieces = 12;

Evaluation first_side_result(const Outcome& outcome) {
    if (!outcome.winner) {
        return {Evaluation::Kind::result, 0};
    }
    return {Evaluation::Kind::result, *outcome.winner == Side::first ? 1 : -1};
}

// The mover's numbers turned to the first side's point of view.
int for_first_side(int value, Side mover) {
    return mover == Side::first ? value : -value;
}

Expected<PositionAnalysis> analyse_round(const Game& game) {
    using namespace core::sniderman;
    const auto* round = dynamic_cast<const SnidermanGame*>(&game);
    if (round == nullptr) {
        return make_error("not a Sniderman round");
    }
    const auto object = to_object(round->object());
    if (!object) {
        return make_error("the round has no object: nothing to analyse");
    }
    PositionAnalysis analysis;
    analysis.to_move = game.to_move();
    const Position& position = round->position();
    Solver solver(position.piece_count() < solver_small_below_pieces ? solver_bits_small
                                                                     : solver_bits_full);
    const Solution solution = solver.solve(position, round->history(), *object, 1);
    analysis.eval = {Evaluation::Kind::result, solution.odd_wins ? 1 : -1};
    if (!solution.winning_moves.empty()) {
        analysis.best = move_name(solution.winning_moves.front());
        analysis.pv = {analysis.best};
    }
    analysis.nodes = solver.nodes();
    return analysis;
}

}  // namespace

Expected<PositionAnalysis> analyse_position(const Game& game, std::uint64_t nodes,
                                            const std::atomic<bool>* stop) {
    if (const auto outcome = game.outcome()) {
        PositionAnalysis over;
        over.to_move = game.to_move();
        over.eval = first_side_result(*outcome);
        return over;
    }
    if (game.variant() == VariantId::sniderman) {
        return analyse_round(game);
    }
    Engine engine(analysis_hash_megabytes);
    SearchLimits limits;
    limits.max_nodes = nodes == 0 ? default_analysis_nodes : nodes;
    limits.stop = stop;
    auto found = engine.choose(game, max_level, limits, 0);
    if (stop != nullptr && stop->load()) {
        return make_error("the analysis was stopped");
    }
    if (!found) {
        return make_error(found.error());
    }
    PositionAnalysis analysis;
    analysis.to_move = game.to_move();
    if (found->mate_in && *found->mate_in != 0) {
        analysis.eval = {Evaluation::Kind::mate, for_first_side(*found->mate_in, game.to_move())};
    } else {
        analysis.eval = {Evaluation::Kind::cp, for_first_side(found->score_cp, game.to_move())};
    }
    analysis.best = found->best_move;
    analysis.pv = found->pv;
    analysis.nodes = found->nodes;
    return analysis;
}

Expected<std::vector<std::unique_ptr<Game>>> game_positions(VariantId variant,
                                                            const GameOptions& options,
                                                            const std::vector<std::string>& moves) {
    auto game = make_game(variant, options);
    if (!game) {
        return make_error(game.error());
    }
    std::vector<std::unique_ptr<Game>> positions;
    positions.reserve(moves.size() + 1);
    positions.push_back((*game)->clone());
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (auto played = (*game)->play(moves[i]); !played) {
            return make_error("move " + std::to_string(i + 1) + " (" + moves[i] +
                              "): " + played.error());
        }
        positions.push_back((*game)->clone());
    }
    return positions;
}

Expected<GameAnalysis> analyse_game(VariantId variant, const GameOptions& options,
                                    const std::vector<std::string>& moves, std::uint64_t nodes) {
    auto positions = game_positions(variant, options, moves);
    if (!positions) {
        return make_error(positions.error());
    }
    GameAnalysis analysis;
    for (const auto& position : *positions) {
        auto one = analyse_position(*position, nodes);
        if (!one) {
            return make_error(one.error());
        }
        analysis.positions.push_back(std::move(*one));
    }
    analysis.moves = judge_moves(variant, moves, analysis.positions);
    for (const Side side : {Side::first, Side::second}) {
        std::vector<double> accuracies;
        for (const auto& move : analysis.moves) {
            if (move.mover == side) {
                accuracies.push_back(move.accuracy);
            }
        }
        analysis.accuracy[side == Side::first ? 0 : 1] = game_accuracy(accuracies);
    }
    return analysis;
}

}  // namespace core::engine
