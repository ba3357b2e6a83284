// The finder's Chessence and Chesica half: the engine's screen and proof searches.
#include "core/puzzles/finder.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/game.h"
#include "core/sniderman/solver.h"

namespace core::puzzles {

namespace {

// A search of `game` at `nodes` nodes from a cleared table, over `moves` only (empty: all).
Expected<engine::SearchResult> proof_search(engine::Engine& engine, const Game& game,
                                            std::uint64_t nodes, std::vector<std::string> moves) {
    engine.new_game();
    engine::SearchLimits limits;
    limits.max_nodes = nodes;
    limits.search_moves = std::move(moves);
    return engine.choose(game, engine::max_level, limits, 0);
}

// Every legal move of `game` but `best`.
std::vector<std::string> other_moves(const Game& game, const std::string& best) {
    auto moves = game.legal_moves();
    moves.erase(std::remove(moves.begin(), moves.end(), best), moves.end());
    return moves;
}

// The longest odd prefix of `pv`, at most `plies` long, that can be played in `game` (a shorter
// one, of any length, when the game ends on the way).
std::vector<std::string> solution_line(const Game& game, const std::vector<std::string>& pv,
                                       int plies) {
    auto copy = game.clone();
    std::vector<std::string> line;
    for (const auto& move : pv) {
        if (static_cast<int>(line.size()) >= plies) {
            break;
        }
        auto played = copy->play(move);
        if (!played) {
            break;
        }
        line.push_back(*played);
        if (copy->outcome()) {
            return line;
        }
    }
    if (line.size() % 2 == 0 && !line.empty()) {
        line.pop_back();
    }
    return line;
}

}  // namespace

int default_win_cp(VariantId game) {
    return game == VariantId::chessence ? 400 : 300;
}

int default_gap_cp(VariantId game) {
    return game == VariantId::chessence ? 300 : 250;
}

Finder::Finder(FinderSettings settings) : settings_(settings), engine_(settings.hash_megabytes) {}

Finder::~Finder() = default;

Expected<Verdict> Finder::examine(const Candidate& candidate) {
    if (candidate.game == VariantId::sniderman) {
        return examine_sniderman(candidate);
    }
    if (candidate.object != 0) {
        return make_error("only a Sniderman puzzle has an object");
    }
    return examine_engine(candidate);
}

Expected<Verdict> Finder::examine_engine(const Candidate& candidate) {
    GameOptions options;
    options.rules = candidate.rules;
    options.fen = candidate.fen;
    auto made = make_game(candidate.game, options);
    if (!made) {
        return make_error("bad position: " + made.error());
    }
    const Game& game = **made;
    Verdict verdict;
    if (game.outcome()) {
        verdict.rejection = Rejection::game_over;
        return verdict;
    }
    if (game.legal_moves().size() < 2) {
        verdict.rejection = Rejection::forced;
        return verdict;
    }
    const int win = settings_.win_cp > 0 ? settings_.win_cp : default_win_cp(candidate.game);
    const int gap = settings_.gap_cp > 0 ? settings_.gap_cp : default_gap_cp(candidate.game);

    // The screen: lenient bounds (half the thresholds) at a small budget.
    if (settings_.screen_nodes > 0) {
        const auto best = proof_search(engine_, game, settings_.screen_nodes, {});
        if (!best) {
            return make_error(best.error());
        }
        verdict.proof.best_cp = best->score_cp;
        if (best->score_cp < win / 2) {
            verdict.rejection = Rejection::not_winning;
            return verdict;
        }
        const auto second =
            proof_search(engine_, game, settings_.screen_nodes, other_moves(game, best->best_move));
        if (!second) {
            return make_error(second.error());
        }
        verdict.proof.second_cp = second->score_cp;
        if (second->score_cp > best->score_cp - gap / 2) {
            verdict.rejection = Rejection::several_winning;
            return verdict;
        }
    }

    // The proof.
    verdict.proof = Proof{};
    verdict.proof.nodes = settings_.nodes;
    const auto best = proof_search(engine_, game, settings_.nodes, {});
    if (!best) {
        return make_error(best.error());
    }
    verdict.proof.best_cp = best->score_cp;
    if (best->mate_in && *best->mate_in > 0) {
        verdict.proof.mate_in = best->mate_in;
    }
    if (best->score_cp < win) {
        verdict.rejection = Rejection::not_winning;
        return verdict;
    }
    const auto second =
        proof_search(engine_, game, settings_.nodes, other_moves(game, best->best_move));
    if (!second) {
        return make_error(second.error());
    }
    verdict.proof.second_cp = second->score_cp;
    if (second->score_cp >= win || second->score_cp > best->score_cp - gap) {
        verdict.rejection = Rejection::several_winning;
        return verdict;
    }

    Puzzle puzzle;
    puzzle.game = candidate.game;
    puzzle.rules = candidate.rules;
    puzzle.fen = game.fen();
    puzzle.to_move = game.to_move();
    puzzle.solution = solution_line(game, best->pv, std::max(1, settings_.line_plies));
    if (puzzle.solution.empty() || puzzle.solution.front() != best->best_move) {
        return make_error("the engine's line does not start with its move " + best->best_move);
    }
    puzzle.proof = verdict.proof;
    puzzle.id = puzzle_id(puzzle.game, puzzle.rules, puzzle.fen, 0);
    verdict.puzzle = std::move(puzzle);
    return verdict;
}

}  // namespace core::puzzles
