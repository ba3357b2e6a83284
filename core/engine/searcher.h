#pragma once
// The search, written once for Chessence and Chesica; a game's Rules type (chessence_rules.h,
// chesica_rules.h) supplies what differs. Iterative deepening over a principal-variation
// alpha-beta search with a transposition table, check extension, late-move reductions and a
// quiescence search of captures (and of check evasions and compulsory jumps, where standing
// pat is not allowed). Moves are tried TT move first, then captures, killers and history.
// Every buffer is allocated when the searcher is made, none while it searches.
// Definitions: searcher_nodes.h (the tree) and searcher_root.h (the root and the iterations).
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/engine/budget.h"
#include "core/engine/plan.h"
#include "core/engine/score.h"
#include "core/engine/transposition.h"

namespace core::engine {

template <class Rules>
class Searcher {
public:
    using Position = typename Rules::Position;
    using Move = typename Rules::Move;
    using MoveList = typename Rules::MoveList;

    Searcher(const Rules& rules, TranspositionTable& table, Budget& budget);

    // Searches the last position of `history` (the game from its start or loaded position),
    // calling `report` after each completed iteration; returns the move to play first in `pv`.
    // Empty pv: the side to move has no move.
    SearchReport run(std::span<const Position> history, const SearchPlan& plan,
                     const ReportFn& report);

private:
    struct Frame {
        MoveList moves;
        std::array<int, Rules::max_moves> order;
        std::array<std::uint32_t, 2> killers{};
    };
    struct RootMove {
        Move move;
        int score = -infinity_score;      // in the iteration under way
        int completed = -infinity_score;  // in the last completed iteration
    };

    int search(int depth, int alpha, int beta, int ply, bool pv_node);
    int quiesce(int alpha, int beta, int ply);
    int search_root(int depth, int alpha, int beta, bool exact_scores);
    int search_iteration(int depth, int last_score, bool exact_scores);
    static constexpr int aspiration_depth = 4;
    static constexpr int aspiration_window = 35;

    const Position& position(int ply) const { return stack_[root_ + ply]; }
    // Plays m from the position at `ply` into the slot of ply + 1.
    void push(int ply, const Move& m) {
        stack_[root_ + ply + 1] = rules_.play(stack_[root_ + ply], m);
        hashes_[root_ + ply + 1] = rules_.hash(stack_[root_ + ply + 1]);
    }
    // The game's positions up to and including the one at `ply`.
    std::span<const Position> path(int ply) const {
        return std::span<const Position>(stack_.data(), root_ + ply + 1);
    }
    // Whether the position at `ply` scores as a draw by repetition: it occurred once before
    // within the search (the side that repeated can repeat again), or twice before at or before
    // the root (it is then the game's third occurrence).
    bool repeated(int ply) const;
    void order_moves(Frame& frame, const Position& p, std::uint32_t tt_move, int ply);
    void pick_next(Frame& frame, int i, int n);
    void reward_quiet(const Position& p, const Move& m, int depth, int ply);
    void punish_quiet(const Position& p, const Move& m, int depth);
    int& history_of(const Position& p, const Move& m) {
        return history_[rules_.side(p) * 4096 + rules_.from(m) * 64 + rules_.to(m)];
    }
    void update_pv(int ply, const Move& m);
    bool in_search_moves(const SearchPlan& plan, const Move& m) const;
    std::vector<std::string> pv_notation() const;

    Rules rules_;
    TranspositionTable& table_;
    Budget& budget_;
    std::vector<Position> stack_;        // the game's positions, then the search path
    std::vector<std::uint64_t> hashes_;  // their hashes
    std::size_t root_ = 0;               // the index of the root in stack_
    std::vector<Frame> frames_;          // per ply
    std::vector<std::array<Move, max_search_ply + 1>> pv_;
    std::array<int, max_search_ply + 1> pv_length_{};
    std::vector<int> history_;  // [side][from][to]
    std::vector<RootMove> root_moves_;
    std::vector<Move> best_line_;  // the principal variation of the last completed iteration
    int noise_cp_ = 0;             // the level's noise (SearchPlan)
};

template <class Rules>
Searcher<Rules>::Searcher(const Rules& rules, TranspositionTable& table, Budget& budget)
    : rules_(rules),
      table_(table),
      budget_(budget),
      frames_(max_search_ply + 1),
      pv_(max_search_ply + 1),
      history_(2 * 4096, 0) {}

template <class Rules>
bool Searcher<Rules>::repeated(int ply) const {
    const std::size_t here = root_ + static_cast<std::size_t>(ply);
    const std::size_t back = std::min<std::size_t>(
        here, static_cast<std::size_t>(rules_.reversible_plies(position(ply))));
    int before_root = 0;
    for (std::size_t i = 2; i <= back; i += 2) {
        if (hashes_[here - i] == hashes_[here] && (here - i > root_ || ++before_root == 2)) {
            return true;
        }
    }
    return false;
}

template <class Rules>
void Searcher<Rules>::update_pv(int ply, const Move& m) {
    pv_[ply][ply] = m;
    for (int i = ply + 1; i < pv_length_[ply + 1]; ++i) {
        pv_[ply][i] = pv_[ply + 1][i];
    }
    pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
}

}  // namespace core::engine
