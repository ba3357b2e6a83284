#include "core/chessence/movegen.h"

namespace core::chessence {

namespace {

// The move of `from` to `to`, a capture when an enemy man stands there.
Move move_to(Square from, Square to, Bitboard enemy) {
    return (enemy & bit(to)) != 0 ? Move::capture(from, to) : Move::quiet(from, to);
}

// What the legality filter needs to know about the position before any move.
struct SafetyContext {
    Square king = 0;
    Bitboard enemy = 0;
    MoverPowers enemy_powers;
    bool checked = false;
    // Squares a man may leave without any risk to its king. With the king not in check, a move
    // never gives the enemy a man or a power, so only a man standing between the king and an
    // enemy man with the power to slide along that line (a pinned man) can expose it.
    Bitboard safe_origins = 0;
};

// The first occupied square of ray D from s, or -1.
template <int D>
Square first_blocker(Square s, Bitboard occupied) {
    const Bitboard blockers = rays[D][s] & occupied;
    if (blockers == 0) {
        return -1;
    }
    return D < 4 ? lowest(blockers) : highest(blockers);
}

// Adds to `pinned` the own man first on ray D from the king if an enemy slider of the right kind
// stands right behind it.
template <int D>
void find_pin(const Position& p, const SafetyContext& context, Bitboard& pinned) {
    const Bitboard occupied = p.occupied();
    const Square shield = first_blocker<D>(context.king, occupied);
    if (shield < 0 || (p.own_men() & bit(shield)) == 0) {
        return;
    }
    const Square behind = first_blocker<D>(shield, occupied);
    const bool orthogonal = D == north || D == east || D == south || D == west;
    const Bitboard sliders = orthogonal ? context.enemy_powers.rook : context.enemy_powers.bishop;
    if (behind >= 0 && (sliders & bit(behind)) != 0) {
        pinned |= bit(shield);
    }
}

SafetyContext safety_context(const Position& p) {
    SafetyContext context;
    context.king = p.king[index(p.side_to_move)];
    context.enemy = p.enemy_men();
    context.enemy_powers = mover_powers(context.enemy);
    const Bitboard occupied = p.occupied();
    // Slides are only traced when an enemy slider of the kind stands on one of the king's lines.
    const bool rook_threat = (rook_lines[context.king] & context.enemy_powers.rook) != 0;
    const bool bishop_threat = (bishop_lines[context.king] & context.enemy_powers.bishop) != 0;
    context.checked =
        (knight_targets[context.king] & context.enemy_powers.knight) != 0 ||
        (rook_threat && (rook_slides(context.king, occupied) & context.enemy_powers.rook) != 0) ||
        (bishop_threat &&
         (bishop_slides(context.king, occupied) & context.enemy_powers.bishop) != 0);
    if (context.checked) {
        return context;
    }
    Bitboard pinned = 0;
    if (rook_threat) {
        find_pin<north>(p, context, pinned);
        find_pin<east>(p, context, pinned);
        find_pin<south>(p, context, pinned);
        find_pin<west>(p, context, pinned);
    }
    if (bishop_threat) {
        find_pin<north_east>(p, context, pinned);
        find_pin<north_west>(p, context, pinned);
        find_pin<south_west>(p, context, pinned);
        find_pin<south_east>(p, context, pinned);
    }
    context.safe_origins = board_mask & ~pinned;
    return context;
}

// Whether `move` leaves the king out of check; quiet moves and drops reuse the enemy's powers.
bool safe_after(const Position& p, const SafetyContext& context, Move move) {
    const Bitboard to = bit(move.to());
    if (move.is_capture()) {
        return keeps_king_safe(p, move);
    }
    Bitboard occupied = p.occupied() | to;
    if (!move.is_drop()) {
        occupied &= ~bit(move.from());
    }
    return (knight_targets[context.king] & context.enemy_powers.knight) == 0 &&
           (rook_slides(context.king, occupied) & context.enemy_powers.rook) == 0 &&
           (bishop_slides(context.king, occupied) & context.enemy_powers.bishop) == 0;
}

// The squares of `targets` the man on `from` may go to without leaving its king in check.
Bitboard safe_targets(const Position& p, const SafetyContext& context, Square from,
                      Bitboard targets) {
    for (Bitboard each = targets; each != 0;) {
        const Square to = pop_lowest(each);
        if (!safe_after(p, context, move_to(from, to, context.enemy))) {
            targets ^= bit(to);
        }
    }
    return targets;
}

// The legal drop squares: any empty home square unless the king is in check.
Bitboard legal_drops(const Position& p, const SafetyContext& context) {
    Bitboard drops = drop_targets(p);
    if (context.checked) {
        for (Bitboard each = drops; each != 0;) {
            const Square to = pop_lowest(each);
            if (!safe_after(p, context, Move::drop(to))) {
                drops ^= bit(to);
            }
        }
    }
    return drops;
}

// Calls visit(from, targets) for every man with a legal move, with the squares it may legally
// move to, then visit_drops(squares) with the legal drop squares (possibly none).
template <class Visit, class VisitDrops>
void for_each_legal_set(const Position& p, Visit&& visit, VisitDrops&& visit_drops) {
    const SafetyContext context = safety_context(p);
    const Bitboard own = p.own_men();
    const Bitboard occupied = p.occupied();
    const Bitboard forbidden = own | p.kings;
    const MoverPowers powers = mover_powers(own);
    for (Bitboard movers = powers.rook | powers.bishop | powers.knight; movers != 0;) {
        const Square from = pop_lowest(movers);
        Bitboard targets = man_targets(from, powers, occupied, forbidden);
        if ((context.safe_origins & bit(from)) == 0) {
            targets = safe_targets(p, context, from, targets);
        }
        if (targets != 0) {
            visit(from, targets);
        }
    }
    visit_drops(legal_drops(p, context));
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
        for (Bitboard targets = man_targets(from, powers, occupied, forbidden); targets != 0;) {
            list.push(move_to(from, pop_lowest(targets), enemy));
        }
    }
    for (Bitboard drops = drop_targets(p); drops != 0;) {
        list.push(Move::drop(pop_lowest(drops)));
    }
}

void generate_legal(const Position& p, MoveList& list) {
    const Bitboard enemy = p.enemy_men();
    for_each_legal_set(
        p,
        [&](Square from, Bitboard targets) {
            while (targets != 0) {
                list.push(move_to(from, pop_lowest(targets), enemy));
            }
        },
        [&](Bitboard drops) {
            while (drops != 0) {
                list.push(Move::drop(pop_lowest(drops)));
            }
        });
}

CHESSENCE_HOT std::uint64_t count_legal(const Position& p) {
    std::uint64_t total = 0;
    for_each_legal_set(
        p, [&](Square, Bitboard targets) { total += count(targets); },
        [&](Bitboard drops) { total += count(drops); });
    return total;
}

CHESSENCE_HOT void LegalTargets::fill(const Position& p) {
    const SafetyContext context = safety_context(p);
    const Bitboard own = p.own_men();
    const Bitboard forbidden = own | p.kings;
    const MoverPowers powers = mover_powers(own);
    const Bitboard free = own & context.safe_origins;
    occupied_ = p.occupied();
    enemy_ = context.enemy;
    const Bitboard empty = existing_squares & ~occupied_;
    const Bitboard rooks = powers.rook & free;
    const Bitboard bishops = powers.bishop & free;
    slides_ = {slide_set<north>(rooks, empty, enemy_),
               slide_set<east>(rooks, empty, enemy_),
               slide_set<north_east>(bishops, empty, enemy_),
               slide_set<north_west>(bishops, empty, enemy_),
               slide_set<south>(rooks, empty, enemy_),
               slide_set<west>(rooks, empty, enemy_),
               slide_set<south_west>(bishops, empty, enemy_),
               slide_set<south_east>(bishops, empty, enemy_)};
    total_ = 0;
    for (const Bitboard targets : slides_) {
        total_ += count(targets);
    }
    movers_ = 0;
    auto add = [&](Square from, Bitboard targets) {
        from_[movers_] = static_cast<std::uint8_t>(from);
        targets_[movers_++] = targets;
        total_ += count(targets);
    };
    for (Bitboard knights = powers.knight & free; knights != 0;) {
        const Square from = pop_lowest(knights);
        if (const Bitboard targets = knight_targets[from] & ~forbidden; targets != 0) {
            add(from, targets);
        }
    }
    for (Bitboard restricted = (powers.rook | powers.bishop | powers.knight) & ~free;
         restricted != 0;) {
        const Square from = pop_lowest(restricted);
        const Bitboard targets =
            safe_targets(p, context, from, man_targets(from, powers, occupied_, forbidden));
        if (targets != 0) {
            add(from, targets);
        }
    }
    drops_ = legal_drops(p, context);
    total_ += count(drops_);
}

namespace {

// The n-th square (lowest first) of a set with more than n squares.
Square nth_square(Bitboard b, int n) {
    for (; n > 0; --n) {
        b &= b - 1;
    }
    return lowest(b);
}

}  // namespace

CHESSENCE_HOT Move LegalTargets::move_at(int n) const {
    assert(n >= 0 && n < total_);
    for (int d = 0; d < direction_count; ++d) {
        const int here = count(slides_[d]);
        if (n < here) {
            // The man that slid here is the first one found looking back along the ray.
            const Square to = nth_square(slides_[d], n);
            const Bitboard behind = rays[opposite(d)][to] & occupied_;
            const Square from = opposite(d) < 4 ? lowest(behind) : highest(behind);
            return move_to(from, to, enemy_);
        }
        n -= here;
    }
    for (int i = 0; i < movers_; ++i) {
        const int here = count(targets_[i]);
        if (n < here) {
            return move_to(from_[i], nth_square(targets_[i], n), enemy_);
        }
        n -= here;
    }
    return Move::drop(nth_square(drops_, n));
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
