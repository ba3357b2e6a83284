#include "core/chessence/movegen.h"

namespace core::chessence {

namespace {

// What the legality filter needs to know about the position before any move.
struct SafetyContext {
    bool checked = false;
    // Squares a man may leave without any risk to its king: with the king not in check, only
    // leaving a square on a line from the king can expose it (a move never gives the enemy a man
    // or a power).
    Bitboard safe_origins = 0;
};

SafetyContext safety_context(const Position& p) {
    SafetyContext context;
    context.checked = in_check(p);
    context.safe_origins =
        context.checked ? 0 : board_mask & ~queen_lines[p.king[index(p.side_to_move)]];
    return context;
}

void push_all(MoveList& list, Square from, Bitboard targets, Bitboard enemy) {
    for (Bitboard quiet = targets & ~enemy; quiet != 0;) {
        list.push(Move::quiet(from, pop_lowest(quiet)));
    }
    for (Bitboard captures = targets & enemy; captures != 0;) {
        list.push(Move::capture(from, pop_lowest(captures)));
    }
}

void push_safe(const Position& p, MoveList& list, Square from, Bitboard targets, Bitboard enemy) {
    for (; targets != 0;) {
        const Square to = pop_lowest(targets);
        const Move move =
            (enemy & bit(to)) != 0 ? Move::capture(from, to) : Move::quiet(from, to);
        if (keeps_king_safe(p, move)) {
            list.push(move);
        }
    }
}

}  // namespace

bool keeps_king_safe(const Position& p, Move move) {
    const int us = index(p.side_to_move);
    Bitboard occupied = p.occupied();
    Bitboard enemy = p.men[1 - us];
    const Bitboard to = bit(move.to());
    if (move.is_drop()) {
        occupied |= to;
    } else {
        occupied = (occupied & ~bit(move.from())) | to;
        enemy &= ~to;
    }
    return !attacked_by_men(p.king[us], occupied, enemy);
}

void generate_pseudo_legal(const Position& p, MoveList& list) {
    const Bitboard own = p.own_men();
    const Bitboard enemy = p.enemy_men();
    const Bitboard occupied = p.occupied();
    const Bitboard forbidden = own | p.kings;
    const MoverPowers powers = mover_powers(own);
    for (Bitboard movers = powers.rook | powers.bishop | powers.knight; movers != 0;) {
        const Square from = pop_lowest(movers);
        push_all(list, from, man_targets(from, powers, occupied, forbidden), enemy);
    }
    for (Bitboard drops = drop_targets(p); drops != 0;) {
        list.push(Move::drop(pop_lowest(drops)));
    }
}

void generate_legal(const Position& p, MoveList& list) {
    const SafetyContext context = safety_context(p);
    const Bitboard own = p.own_men();
    const Bitboard enemy = p.enemy_men();
    const Bitboard occupied = p.occupied();
    const Bitboard forbidden = own | p.kings;
    const MoverPowers powers = mover_powers(own);
    for (Bitboard movers = powers.rook | powers.bishop | powers.knight; movers != 0;) {
        const Square from = pop_lowest(movers);
        const Bitboard targets = man_targets(from, powers, occupied, forbidden);
        if ((context.safe_origins & bit(from)) != 0) {
            push_all(list, from, targets, enemy);
        } else {
            push_safe(p, list, from, targets, enemy);
        }
    }
    for (Bitboard drops = drop_targets(p); drops != 0;) {
        const Move move = Move::drop(pop_lowest(drops));
        if (!context.checked || keeps_king_safe(p, move)) {
            list.push(move);
        }
    }
}

std::uint64_t count_legal(const Position& p) {
    const SafetyContext context = safety_context(p);
    const Bitboard own = p.own_men();
    const Bitboard enemy = p.enemy_men();
    const Bitboard occupied = p.occupied();
    const Bitboard forbidden = own | p.kings;
    const MoverPowers powers = mover_powers(own);
    std::uint64_t total = 0;
    for (Bitboard movers = powers.rook | powers.bishop | powers.knight; movers != 0;) {
        const Square from = pop_lowest(movers);
        Bitboard targets = man_targets(from, powers, occupied, forbidden);
        if ((context.safe_origins & bit(from)) != 0) {
            total += count(targets);
            continue;
        }
        while (targets != 0) {
            const Square to = pop_lowest(targets);
            const Move move =
                (enemy & bit(to)) != 0 ? Move::capture(from, to) : Move::quiet(from, to);
            total += keeps_king_safe(p, move) ? 1 : 0;
        }
    }
    Bitboard drops = drop_targets(p);
    if (!context.checked) {
        return total + count(drops);
    }
    while (drops != 0) {
        total += keeps_king_safe(p, Move::drop(pop_lowest(drops))) ? 1 : 0;
    }
    return total;
}

bool has_legal_move(const Position& p) {
    MoveList list;
    generate_pseudo_legal(p, list);
    for (const Move move : list) {
        if (keeps_king_safe(p, move)) {
            return true;
        }
    }
    return false;
}

}  // namespace core::chessence
