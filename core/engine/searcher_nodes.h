#pragma once
// The tree of Searcher (searcher.h): the alpha-beta search of a node, the quiescence search and
// move ordering.
#include "core/engine/searcher.h"

namespace core::engine {

namespace ordering {
constexpr int tt_move = 1 << 30;
constexpr int tactical = 1 << 28;
constexpr int killer = 1 << 27;
constexpr int history_limit = 1 << 24;
}  // namespace ordering

constexpr int futility_depth = 3;
constexpr int futility_margin = 120;  // centi-pawns a ply

template <class Rules>
void Searcher<Rules>::order_moves(Frame& frame, const Position& p, std::uint32_t tt_move, int ply) {
    for (int i = 0; i < frame.moves.size(); ++i) {
        const Move& m = frame.moves[i];
        const std::uint32_t key = rules_.key(m);
        int score;
        if (key == tt_move) {
            score = ordering::tt_move;
        } else if (rules_.is_tactical(p, m)) {
            score = ordering::tactical + 1024 * rules_.capture_value(p, m) + history_of(p, m) / 64;
        } else if (ply >= 0 && key == frame.killers[0]) {
            score = ordering::killer + 1;
        } else if (ply >= 0 && key == frame.killers[1]) {
            score = ordering::killer;
        } else {
            score = history_of(p, m);
        }
        frame.order[static_cast<std::size_t>(i)] = score;
    }
}

// Brings the best-ordered of the moves i..n-1 to place i.
template <class Rules>
void Searcher<Rules>::pick_next(Frame& frame, int i, int n) {
    int best = i;
    for (int j = i + 1; j < n; ++j) {
        if (frame.order[static_cast<std::size_t>(j)] >
            frame.order[static_cast<std::size_t>(best)]) {
            best = j;
        }
    }
    if (best != i) {
        std::swap(frame.moves[i], frame.moves[best]);
        std::swap(frame.order[static_cast<std::size_t>(i)],
                  frame.order[static_cast<std::size_t>(best)]);
    }
}

// History with gravity: a bonus moves the value towards +limit, a malus towards -limit.
template <class Rules>
void Searcher<Rules>::reward_quiet(const Position& p, const Move& m, int depth, int ply) {
    int& h = history_of(p, m);
    const int bonus = std::min(depth * depth * 32, 1 << 16);
    h += bonus - static_cast<int>(static_cast<long long>(h) * bonus / ordering::history_limit);
    Frame& frame = frames_[static_cast<std::size_t>(ply)];
    const std::uint32_t key = rules_.key(m);
    if (frame.killers[0] != key) {
        frame.killers[1] = frame.killers[0];
        frame.killers[0] = key;
    }
}

template <class Rules>
void Searcher<Rules>::punish_quiet(const Position& p, const Move& m, int depth) {
    int& h = history_of(p, m);
    const int malus = std::min(depth * depth * 32, 1 << 16);
    h -= malus + static_cast<int>(static_cast<long long>(h) * malus / ordering::history_limit);
}

template <class Rules>
int Searcher<Rules>::search(int depth, int alpha, int beta, int ply, bool pv_node) {
    pv_length_[ply] = ply;
    if (budget_.spend_node()) {
        return 0;
    }
    const Position& p = position(ply);
    if (ply >= max_search_ply - 1) {
        return rules_.evaluate(p);
    }
    if (repeated(ply)) {
        return draw_score;
    }
    // No side can win faster than a mate here, nor lose slower.
    alpha = std::max(alpha, mated_in(ply));
    beta = std::min(beta, -mated_in(ply + 1));
    if (alpha >= beta) {
        return alpha;
    }
    if (depth <= 0) {
        return quiesce(alpha, beta, ply);
    }

    const std::uint64_t key = hashes_[root_ + ply];
    const TableHit hit = table_.probe(key);
    if (hit.found && !pv_node && hit.depth >= depth) {
        const int score = score_from_table(hit.score, ply);
        if (hit.bound == Bound::exact || (hit.bound == Bound::lower && score >= beta) ||
            (hit.bound == Bound::upper && score <= alpha)) {
            return score;
        }
    }

    // Reverse futility: near the leaves, a quiet position whose static evaluation is far above
    // beta is not searched further.
    const bool checked = rules_.in_check(p);
    if (Rules::reverse_futility && !pv_node && depth <= futility_depth && !rules_.forced(p) &&
        !is_mate_score(beta)) {
        const int static_eval = rules_.evaluate(p);
        if (static_eval - futility_margin * depth >= beta) {
            return static_eval;
        }
    }

    Frame& frame = frames_[static_cast<std::size_t>(ply)];
    rules_.clear(frame.moves);
    rules_.generate(p, frame.moves);
    const int n = frame.moves.size();
    const bool fifty = rules_.hundred_ply_draw(p);
    order_moves(frame, p, hit.found ? hit.move : 0, ply);
    if (ply + 1 < max_search_ply) {
        frames_[static_cast<std::size_t>(ply) + 1].killers = {};
    }

    const int original_alpha = alpha;
    int best = -infinity_score;
    std::uint32_t best_key = 0;
    int searched = 0;
    for (int i = 0; i < n; ++i) {
        pick_next(frame, i, n);
        const Move m = frame.moves[i];
        push(ply, m);
        const Position& child = position(ply + 1);
        if (!rules_.allowed(child, path(ply))) {
            continue;
        }
        if (fifty) {
            return draw_score;  // the side could move, so the 100-ply rule ends the game
        }
        const bool tactical = rules_.is_tactical(p, m);
        const bool gives_check = rules_.in_check(child);
        const int new_depth = depth - 1 + (gives_check ? 1 : 0);
        int score;
        if (searched == 0) {
            score = -search(new_depth, -beta, -alpha, ply + 1, pv_node);
        } else {
            int reduction = 0;
            if (depth >= 3 && searched >= 3 && !tactical && !checked && !gives_check &&
                frame.order[static_cast<std::size_t>(i)] < ordering::killer) {
                reduction = 1 + (searched >= 10 && depth >= 5 ? 1 : 0);
            }
            score = -search(new_depth - reduction, -alpha - 1, -alpha, ply + 1, false);
            if (score > alpha && reduction > 0) {
                score = -search(new_depth, -alpha - 1, -alpha, ply + 1, false);
            }
            if (score > alpha && score < beta && pv_node) {
                score = -search(new_depth, -beta, -alpha, ply + 1, true);
            }
        }
        ++searched;
        if (budget_.stopped()) {
            return 0;
        }
        if (score > best) {
            best = score;
            best_key = rules_.key(m);
            if (score > alpha) {
                alpha = score;
                update_pv(ply, m);
                if (score >= beta) {
                    if (!tactical) {
                        reward_quiet(p, m, depth, ply);
                        for (int j = 0; j < i; ++j) {
                            if (!rules_.is_tactical(p, frame.moves[j])) {
                                punish_quiet(p, frame.moves[j], depth);
                            }
                        }
                    }
                    break;
                }
            }
        }
    }
    if (searched == 0) {
        return mated_in(ply);  // no legal move: the side to move has lost
    }
    const Bound bound = best >= beta            ? Bound::lower
                        : best > original_alpha ? Bound::exact
                                                : Bound::upper;
    table_.store(key, best_key, score_to_table(best, ply), depth, bound);
    return best;
}

template <class Rules>
int Searcher<Rules>::quiesce(int alpha, int beta, int ply) {
    pv_length_[ply] = ply;
    if (budget_.spend_node()) {
        return 0;
    }
    const Position& p = position(ply);
    if (ply >= max_search_ply - 1) {
        return rules_.evaluate(p);
    }
    Frame& frame = frames_[static_cast<std::size_t>(ply)];
    rules_.clear(frame.moves);
    const bool forced = rules_.tactical(p, frame.moves);
    const int n = frame.moves.size();
    int best = -infinity_score;
    if (forced) {
        if (n == 0) {
            return mated_in(ply);
        }
    } else {
        if (rules_.surely_stuck(p)) {
            return mated_in(ply);
        }
        best = rules_.evaluate(p);
        if (best >= beta) {
            return best;
        }
        alpha = std::max(alpha, best);
    }
    order_moves(frame, p, 0, -1);
    for (int i = 0; i < n; ++i) {
        pick_next(frame, i, n);
        const Move m = frame.moves[i];
        push(ply, m);
        const int score = -quiesce(-beta, -alpha, ply + 1);
        if (budget_.stopped()) {
            return 0;
        }
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                update_pv(ply, m);
                if (score >= beta) {
                    break;
                }
            }
        }
    }
    return best;
}

}  // namespace core::engine
