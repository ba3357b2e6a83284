#pragma once
// What the search needs to know about Chesica, in the typed fast code of core/chesica: move
// generation (compulsory jumps, whole chains as one move), rule 5's ban on a third occurrence,
// quiescence moves, hashing, the evaluation and the 100-ply rule.
#include <bit>
#include <cstdint>
#include <span>
#include <string>

#include "core/chesica/legal.h"
#include "core/chesica/movegen.h"
#include "core/chesica/notation.h"
#include "core/chesica/perft.h"
#include "core/engine/chesica_eval.h"
#include "core/engine/chesica_hash.h"

namespace core::engine {

struct ChesicaRules {
    using Position = chesica::Position;
    using Move = chesica::Move;
    using MoveList = chesica::MoveList;
    static constexpr int max_moves = chesica::MoveList::capacity;
    // Measured: pruning quiet-looking nodes loses to the jump chains a ply later (-100 Elo).
    static constexpr bool reverse_futility = false;

    RuleSet rules = RuleSet::house;
    const ChesicaWeights* weights = &chesica_weights();

    static void clear(MoveList& list) { list.truncate(0); }
    // Every move of rules 1-4 (all jump chains when a jump exists).
    void generate(const Position& p, MoveList& list) const { chesica::generate_moves(p, list); }
    // Rule 5: `child` may not be the third occurrence of its position; `path` holds the game's
    // positions up to and including the child's parent.
    bool allowed(const Position& child, std::span<const Position> path) const {
        return !chesica::is_third_occurrence(child, path);
    }

    // The quiescence moves: every jump chain when a jump is compulsory (true: the side may not
    // stand pat), otherwise the replacement captures (false). Neither can repeat a position.
    bool tactical(const Position& p, MoveList& list) const {
        chesica::generate_moves(p, list);
        if (!list.empty() && list[0].type == chesica::MoveType::jump) {
            return true;
        }
        int kept = 0;
        for (int i = 0; i < list.size(); ++i) {
            if (list[i].type == chesica::MoveType::capture) {
                list[kept++] = list[i];
            }
        }
        list.truncate(kept);
        return false;
    }
    // True when the side to move has no move at all (it has then lost).
    bool surely_stuck(const Position& p) const { return chesica::count_moves(p) == 0; }

    Position play(const Position& p, const Move& m) const {
        Position child = p;
        chesica::make_move(child, m);
        return child;
    }
    std::uint64_t hash(const Position& p) const { return chesica_hash(p); }
    int evaluate(const Position& p) const { return evaluate_chesica(p, *weights); }
    bool in_check(const Position&) const { return false; }
    // Whether a jump is compulsory (its static evaluation then means little).
    bool forced(const Position& p) const { return chesica::jumpers(p) != 0; }
    int side(const Position& p) const { return chesica::side_index(p.to_move); }

    // Captures and promotions: searched first and never reduced.
    bool is_tactical(const Position& p, const Move& m) const {
        return m.captured != 0 || promotes(p, m);
    }
    // Pieces taken (promoted ones count double), and a promotion.
    int capture_value(const Position& p, const Move& m) const {
        return 4 * std::popcount(m.captured) + 4 * std::popcount(m.captured & p.promoted) +
               (promotes(p, m) ? 3 : 0);
    }
    // From, to, kind and a fold of the captured squares: tells apart the chains of one piece.
    std::uint32_t key(const Move& m) const {
        const std::uint64_t c = m.captured * 0x9E3779B97F4A7C15ULL;
        return 1u << 31 | m.from | m.to << 6 | static_cast<std::uint32_t>(m.type) << 12 |
               static_cast<std::uint32_t>(c >> 47) << 14;
    }
    int from(const Move& m) const { return m.from; }
    int to(const Move& m) const { return m.to; }

    int reversible_plies(const Position& p) const { return p.reversible_plies; }
    bool hundred_ply_draw(const Position& p) const {
        return chesica::drawn_by_house_rule(p, rules);
    }
    std::string notation(const Move& m) const { return chesica::to_notation(m); }

private:
    static bool promotes(const Position& p, const Move& m) {
        return (p.promoted & chesica::square_bb(m.from)) == 0 &&
               chesica::rank_of(m.to) == chesica::far_rank(p.to_move);
    }
};

}  // namespace core::engine
