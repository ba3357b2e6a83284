#pragma once
// What the search needs to know about Chessence, in the typed fast code of core/chessence: move
// generation, quiescence moves, making moves, hashing, the evaluation and the draw rules.
#include <cstdint>
#include <span>
#include <string>

#include "core/chessence/movegen.h"
#include "core/chessence/notation.h"
#include "core/chessence/result.h"
#include "core/engine/chessence_eval.h"
#include "core/variant.h"

namespace core::engine {

struct ChessenceRules {
    using Position = chessence::Position;
    using Move = chessence::Move;
    using MoveList = chessence::MoveList;
    static constexpr int max_moves = chessence::max_moves;
    static constexpr bool reverse_futility = true;

    RuleSet rules = RuleSet::house;
    const ChessenceWeights* weights = &chessence_weights();

    static void clear(MoveList& list) { list.clear(); }
    // Every legal move.
    void generate(const Position& p, MoveList& list) const { chessence::generate_legal(p, list); }
    // Moves are legal once generated: no history rule bans one.
    bool allowed(const Position&, std::span<const Position>) const { return true; }

    // The quiescence moves: every evasion when in check (true: the side may not stand pat),
    // otherwise the legal captures (false).
    bool tactical(const Position& p, MoveList& list) const {
        if (chessence::in_check(p)) {
            chessence::generate_legal(p, list);
            return true;
        }
        using namespace chessence;
        const Bitboard own = p.own_men();
        const Bitboard enemy = p.enemy_men();
        const MoverPowers powers = mover_powers(own);
        for (Bitboard movers = powers.rook | powers.bishop | powers.knight; movers != 0;) {
            const Square from = pop_lowest(movers);
            Bitboard targets = man_targets(from, powers, p.occupied(), own | p.kings) & enemy;
            while (targets != 0) {
                const Move m = Move::capture(from, pop_lowest(targets));
                if (keeps_king_safe(p, m)) {
                    list.push(m);
                }
            }
        }
        return false;
    }
    // True when the side to move surely has no move at all (it has then lost): no man has a
    // power and no drop is possible. A cheap test for the quiescence search.
    bool surely_stuck(const Position& p) const {
        const chessence::Bitboard own = p.own_men();
        return chessence::drop_targets(p) == 0 &&
               (chessence::rook_powered(own) | chessence::bishop_powered(own) |
                chessence::knight_powered(own)) == 0;
    }

    Position play(const Position& p, Move m) const {
        Position child = p;
        chessence::make_move(child, m);
        return child;
    }
    std::uint64_t hash(const Position& p) const { return p.hash; }
    int evaluate(const Position& p) const { return evaluate_chessence(p, *weights); }
    bool in_check(const Position& p) const { return chessence::in_check(p); }
    // Whether the side to move is in check (its static evaluation then means little).
    bool forced(const Position& p) const { return chessence::in_check(p); }
    int side(const Position& p) const { return chessence::index(p.side_to_move); }

    // Captures are searched first and never reduced; all men are alike, so all captures are too.
    bool is_tactical(const Position&, Move m) const { return m.is_capture(); }
    int capture_value(const Position&, Move) const { return 1; }
    std::uint32_t key(Move m) const { return m.raw() | (1u << 16); }
    int from(Move m) const { return m.from(); }
    int to(Move m) const { return m.to(); }

    // Plies the position may look back for an earlier occurrence.
    int reversible_plies(const Position& p) const { return static_cast<int>(p.quiet_plies); }
    bool hundred_ply_draw(const Position& p) const {
        return rules == RuleSet::house && p.quiet_plies >= chessence::quiet_ply_limit;
    }
    std::string notation(Move m) const { return chessence::move_notation(m); }
};

}  // namespace core::engine
