#pragma once
// The root of Searcher (searcher.h): iterative deepening, the root moves, a level's noise and
// what happens when the budget runs out in the middle of an iteration.
#include <string>

#include "core/engine/searcher_nodes.h"

namespace core::engine {

template <class Rules>
std::vector<std::string> Searcher<Rules>::pv_notation() const {
    std::vector<std::string> names;
    names.reserve(best_line_.size());
    for (const Move& m : best_line_) {
        names.push_back(rules_.notation(m));
    }
    return names;
}

// Whether the plan lets the root search m (an empty search_moves: every move).
template <class Rules>
bool Searcher<Rules>::in_search_moves(const SearchPlan& plan, const Move& m) const {
    return plan.search_moves.empty() ||
           std::find(plan.search_moves.begin(), plan.search_moves.end(), rules_.notation(m)) !=
               plan.search_moves.end();
}

// Searches every root move (exactly enough for a level's noise, or with a null window after the
// first one) and leaves the root moves sorted best first. Returns the best score.
template <class Rules>
int Searcher<Rules>::search_root(int depth, int alpha, int beta, bool exact_scores) {
    pv_length_[0] = 0;
    const int original_alpha = alpha;
    int best = -infinity_score;
    int best_index = -1;
    for (std::size_t i = 0; i < root_moves_.size(); ++i) {
        RootMove& rm = root_moves_[i];
        push(0, rm.move);
        const int new_depth = depth - 1 + (rules_.in_check(position(1)) ? 1 : 0);
        int score;
        if (exact_scores) {
            // Only a move within noise_cp of the best so far can win the noisy pick, so the
            // others need only be shown to fall below that (they keep an upper bound).
            const int floor =
                best > -infinity_score + noise_cp_ ? best - noise_cp_ : -infinity_score;
            score = -search(new_depth, -infinity_score, -floor, 1, true);
        } else if (i == 0) {
            score = -search(new_depth, -beta, -alpha, 1, true);
        } else {
            score = -search(new_depth, -alpha - 1, -alpha, 1, false);
            if (score > alpha && score < beta && !budget_.stopped()) {
                score = -search(new_depth, -beta, -alpha, 1, true);
            }
        }
        if (budget_.stopped()) {
            break;
        }
        rm.score = score;
        if (score > best) {
            best = score;
            best_index = static_cast<int>(i);
            update_pv(0, rm.move);
            if (!exact_scores && score > alpha) {
                alpha = score;
            }
        }
        if (!exact_scores && best >= beta) {
            break;
        }
    }
    // A fail low of an aspiration window says only that every move is worse than hoped: the
    // best move and line of the last iteration stay until the wider search finds better.
    const bool failed_low = best <= original_alpha && original_alpha > -infinity_score;
    if (best_index > 0 && !failed_low) {
        // The new best first, the others in their order: the next iteration starts with it.
        std::rotate(root_moves_.begin(), root_moves_.begin() + best_index,
                    root_moves_.begin() + best_index + 1);
    }
    if (best_index >= 0 && !failed_low) {
        best_line_.assign(pv_[0].begin(), pv_[0].begin() + pv_length_[0]);
    }
    return best;
}

// One iteration: from depth 4 on, a narrow window around the last score first, widened on
// each side that fails.
template <class Rules>
int Searcher<Rules>::search_iteration(int depth, int last_score, bool exact_scores) {
    if (exact_scores || depth < aspiration_depth || is_mate_score(last_score)) {
        return search_root(depth, -infinity_score, infinity_score, exact_scores);
    }
    int delta = aspiration_window;
    int alpha = std::max(last_score - delta, -infinity_score);
    int beta = std::min(last_score + delta, infinity_score);
    while (true) {
        const int score = search_root(depth, alpha, beta, false);
        if (budget_.stopped()) {
            return score;
        }
        if (score <= alpha) {
            alpha = std::max(score - delta, -infinity_score);
        } else if (score >= beta) {
            beta = std::min(score + delta, infinity_score);
        } else {
            return score;
        }
        delta *= 3;
        if (delta > 1000) {
            alpha = -infinity_score;
            beta = infinity_score;
        }
    }
}

template <class Rules>
SearchReport Searcher<Rules>::run(std::span<const Position> history, const SearchPlan& plan,
                                  const ReportFn& report) {
    stack_.assign(history.begin(), history.end());
    root_ = stack_.size() - 1;
    stack_.resize(root_ + max_search_ply + 2);
    hashes_.assign(stack_.size(), 0);
    for (std::size_t i = 0; i <= root_; ++i) {
        hashes_[i] = rules_.hash(stack_[i]);
    }
    table_.new_search();

    // The allowed root moves, ordered as any node orders its moves.
    const Position& root = position(0);
    Frame& frame = frames_[0];
    rules_.clear(frame.moves);
    rules_.generate(root, frame.moves);
    const TableHit hit = table_.probe(hashes_[root_]);
    order_moves(frame, root, hit.found ? hit.move : 0, 0);
    root_moves_.clear();
    for (int i = 0; i < frame.moves.size(); ++i) {
        pick_next(frame, i, frame.moves.size());
        push(0, frame.moves[i]);
        if (rules_.allowed(position(1), path(0)) && in_search_moves(plan, frame.moves[i])) {
            root_moves_.push_back({frame.moves[i], -infinity_score, -infinity_score});
        }
    }
    SearchReport result;
    if (root_moves_.empty()) {
        return result;
    }
    best_line_.assign(1, root_moves_[0].move);
    const bool exact_scores = plan.noise_cp > 0;
    noise_cp_ = plan.noise_cp;
    int completed_score = 0;
    for (int depth = 1; depth <= plan.max_depth; ++depth) {
        const int score = search_iteration(depth, completed_score, exact_scores);
        if (budget_.stopped()) {
            // A partial iteration's best is kept when its first move was searched out: it is
            // at least as good as the previous best at this depth.
            if (!exact_scores && score > -infinity_score) {
                result.score = score;
            }
            break;
        }
        for (RootMove& rm : root_moves_) {
            rm.completed = rm.score;
        }
        result.depth = depth;
        result.score = completed_score = score;
        result.nodes = budget_.nodes();
        result.pv = pv_notation();
        if (report) {
            report(result);
        }
        table_.store(hashes_[root_], rules_.key(best_line_[0]), score_to_table(score, 0), depth,
                     Bound::exact);
        const bool mate_seen = is_mate_score(score) && depth > mate_score - std::abs(score);
        // A single legal move needs no search, unless search_moves asked for its score.
        const bool forced = root_moves_.size() == 1 && plan.search_moves.empty();
        if (mate_seen || forced || Clock::now() >= plan.soft_deadline) {
            break;
        }
    }
    result.nodes = budget_.nodes();
    result.pv = pv_notation();
    if (exact_scores || plan.blunder_permille > 0) {
        // A level below full strength: the best move after noise, or now and then any move.
        SeededRandom random(plan.seed);
        std::size_t pick = 0;
        if (random.below(1000) < static_cast<std::uint32_t>(plan.blunder_permille)) {
            pick = random.below(static_cast<std::uint32_t>(root_moves_.size()));
        } else if (exact_scores) {
            int best = -infinity_score - mate_score;
            for (std::size_t i = 0; i < root_moves_.size(); ++i) {
                const int noisy =
                    root_moves_[i].completed +
                    static_cast<int>(random.below(static_cast<std::uint32_t>(plan.noise_cp)));
                if (noisy > best) {
                    best = noisy;
                    pick = i;
                }
            }
        }
        if (rules_.key(root_moves_[pick].move) != rules_.key(best_line_[0])) {
            result.pv = {rules_.notation(root_moves_[pick].move)};
            result.score = root_moves_[pick].completed > -infinity_score
                               ? root_moves_[pick].completed
                               : completed_score;
        }
    }
    return result;
}

}  // namespace core::engine
