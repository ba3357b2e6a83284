// What a game's evaluations say about its moves: winning chances, judgements and accuracy, after
// lichess (https://lichess.org/page/accuracy). Numbers only: no search here.
#include <algorithm>
#include <cmath>

#include "core/engine/analysis.h"

namespace core::engine {

namespace {

// lichess's curve: Win% = 100 / (1 + exp(-0.00368208 × centipawns)), capped at ±1000 centipawns.
constexpr double lichess_slope = 0.00368208;
constexpr double cap_exponent = lichess_slope * 1000;
// The slope per evaluation unit of each game: K × ln 10 / 400 for the scale K that `chessence
// tune` fits between the engine's evaluation and self-play outcomes (300 games each, docs/engine.md
// "Analysis": Chessence K = 1.056, Chesica K = 0.542). A Chesica bishop (100 units) then weighs
// about as lichess's pawn; a Chessence man (257) as 4.2 of them.
constexpr double chessence_slope = 0.00608;
constexpr double chesica_slope = 0.00312;

// lichess's judgements, as drops of the mover's Win%.
constexpr double inaccuracy_drop = 5;
constexpr double mistake_drop = 10;
constexpr double blunder_drop = 15;

// A move's accuracy below this counts as this in the harmonic mean (a 0 would make it 0 whatever
// the other moves).
constexpr double harmonic_floor = 1;

double slope_of(VariantId variant) {
    return variant == VariantId::chessence ? chessence_slope : chesica_slope;
}

}  // namespace

std::string_view judgement_name(Judgement judgement) {
    switch (judgement) {
        case Judgement::inaccuracy:
            return "inaccuracy";
        case Judgement::mistake:
            return "mistake";
        case Judgement::blunder:
            return "blunder";
        case Judgement::none:
            break;
    }
    return "";
}

double win_percent(VariantId variant, const Evaluation& eval, Side side) {
    double first = 50;
    switch (eval.kind) {
        case Evaluation::Kind::result:
            first = eval.value > 0 ? 100 : eval.value < 0 ? 0 : 50;
            break;
        case Evaluation::Kind::mate:
            first = eval.value > 0 ? 100 / (1 + std::exp(-cap_exponent))
                                   : 100 / (1 + std::exp(cap_exponent));
            break;
        case Evaluation::Kind::cp: {
            const double exponent =
                std::clamp(slope_of(variant) * eval.value, -cap_exponent, cap_exponent);
            first = 100 / (1 + std::exp(-exponent));
            break;
        }
    }
    return side == Side::first ? first : 100 - first;
}

Judgement judge_move(double before, double after) {
    const double drop = before - after;
    if (drop >= blunder_drop) {
        return Judgement::blunder;
    }
    if (drop >= mistake_drop) {
        return Judgement::mistake;
    }
    if (drop >= inaccuracy_drop) {
        return Judgement::inaccuracy;
    }
    return Judgement::none;
}

double move_accuracy(double before, double after) {
    const double drop = std::max(0.0, before - after);
    return std::clamp(103.1668 * std::exp(-0.04354 * drop) - 3.1669, 0.0, 100.0);
}

std::optional<double> game_accuracy(const std::vector<double>& move_accuracies) {
    if (move_accuracies.empty()) {
        return std::nullopt;
    }
    double sum = 0;
    double inverse_sum = 0;
    for (const double accuracy : move_accuracies) {
        sum += accuracy;
        inverse_sum += 1 / std::max(accuracy, harmonic_floor);
    }
    const auto n = static_cast<double>(move_accuracies.size());
    return (sum / n + n / inverse_sum) / 2;
}

std::vector<MoveAnalysis> judge_moves(VariantId variant, const std::vector<std::string>& moves,
                                      const std::vector<PositionAnalysis>& positions) {
    std::vector<MoveAnalysis> judged;
    for (std::size_t k = 1; k < positions.size() && k <= moves.size(); ++k) {
        const PositionAnalysis& before = positions[k - 1];
        const PositionAnalysis& after = positions[k];
        MoveAnalysis move;
        move.ply = static_cast<int>(k);
        move.move = moves[k - 1];
        move.mover = before.to_move;
        move.eval = after.eval;
        move.win = win_percent(variant, after.eval, Side::first);
        const double win_before = win_percent(variant, before.eval, move.mover);
        const double win_after = win_percent(variant, after.eval, move.mover);
        move.judgement = judge_move(win_before, win_after);
        move.accuracy = move_accuracy(win_before, win_after);
        move.best = before.best;
        move.pv = before.pv;
        if (variant == VariantId::sniderman && move.judgement == Judgement::none) {
            // Exact results: a move that kept its mover's result was as good as any.
            move.best = move.move;
            move.pv = {move.move};
        }
        judged.push_back(std::move(move));
    }
    return judged;
}

}  // namespace core::engine
