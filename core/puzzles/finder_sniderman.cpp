// The finder's Sniderman half: the exact solver decides, and plays out the line.
#include <algorithm>
#include <memory>
#include <utility>

#include "core/puzzles/finder.h"
#include "core/sniderman/objects.h"
#include "core/sniderman/position.h"
#include "core/sniderman/solver.h"

namespace core::puzzles {

namespace {

namespace sn = core::sniderman;

// The line from p: `first` (the only winning capture), then by turns the loser's first capture
// in notation order and the winner's first winning capture, until `plies` or the round's end.
std::vector<std::string> sniderman_line(sn::Solver& solver, sn::Position p, sn::Object object,
                                        sn::Move first, int plies) {
    std::vector<std::string> line;
    sn::CaptureHistory history;
    sn::Move m = first;
    for (int ply = 0; ply < plies; ++ply) {
        line.push_back(sn::move_name(m));
        history.record(m, p.at(m.to), p.ply);
        p = sn::make_move(p, m);
        const sn::MoveList captures = sn::generate_captures(p);
        if (captures.size == 0) {
            break;
        }
        if (ply % 2 == 0) {
            m = *std::min_element(captures.begin(), captures.end(), sn::notation_less);
        } else {
            const sn::Solution next = solver.solve(p, history, object, 1);
            if (next.winning_moves.empty()) {
                break;  // cannot happen: the winner keeps a winning capture
            }
            m = next.winning_moves.front();
        }
    }
    return line;
}

}  // namespace

Expected<Verdict> Finder::examine_sniderman(const Candidate& candidate) {
    const auto position = sn::parse_position(candidate.fen);
    if (!position) {
        return make_error("bad position: " + position.error());
    }
    const auto object = sn::to_object(candidate.object);
    if (!object) {
        return make_error("a Sniderman puzzle needs an object from 1 to 10");
    }
    Verdict verdict;
    verdict.proof.exact = true;
    const sn::MoveList captures = sn::generate_captures(*position);
    if (captures.size == 0) {
        verdict.rejection = Rejection::game_over;
        return verdict;
    }
    if (captures.size == 1) {
        verdict.rejection = Rejection::forced;
        return verdict;
    }
    if (!solver_) {
        solver_ = std::make_unique<sn::Solver>(settings_.solver_bucket_bits);
    }
    const sn::Solution solution = solver_->solve(*position, sn::CaptureHistory{}, *object, 2);
    if (solution.winning_moves.empty()) {
        verdict.rejection = Rejection::not_winning;
        return verdict;
    }
    if (solution.winning_moves.size() > 1) {
        verdict.rejection = Rejection::several_winning;
        return verdict;
    }
    Puzzle puzzle;
    puzzle.game = VariantId::sniderman;
    puzzle.rules = candidate.rules;
    puzzle.fen = sn::format_position(*position);
    puzzle.to_move = position->odd_to_move() ? Side::first : Side::second;
    puzzle.object = candidate.object;
    puzzle.solution = sniderman_line(*solver_, *position, *object, solution.winning_moves.front(),
                                     std::max(1, settings_.line_plies));
    puzzle.proof = verdict.proof;
    puzzle.id = puzzle_id(puzzle.game, puzzle.rules, puzzle.fen, puzzle.object);
    verdict.puzzle = std::move(puzzle);
    return verdict;
}

}  // namespace core::puzzles
