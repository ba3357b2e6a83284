#include "core/chesica/movegen.h"

#include <bit>

#include "core/chesica/bitboard.h"

namespace core::chesica {

namespace {

constexpr std::array<Direction, 4> diagonals{Direction::ne, Direction::nw, Direction::se,
                                             Direction::sw};
constexpr std::array<Direction, 4> orthogonals{Direction::n, Direction::s, Direction::e,
                                               Direction::w};

constexpr int square_delta(Direction d) {
    return file_step(d) + 8 * rank_step(d);
}

// The diagonal directions a piece jumps in: the two forward ones unpromoted, all four promoted.
struct JumpDirections {
    int first;
    int last;  // exclusive, indexes into `diagonals`
};
constexpr JumpDirections jump_directions(Side us, bool promoted) {
    if (promoted) {
        return {0, 4};
    }
    return us == Side::first ? JumpDirections{0, 2} : JumpDirections{2, 4};
}

// Continues the chain in `m` from `at`, calling emit(m) once per complete chain. `them` holds
// the opposing pieces not yet jumped, `empty` the empty squares (jumped pieces and the mover's
// start square included).
template <class Emit>
void extend_chain(Square at, Bitboard them, Bitboard empty, Side us, bool promoted, Move& m,
                  Emit& emit) {
    const auto [first, last] = jump_directions(us, promoted);
    bool extended = false;
    for (int i = first; i < last; ++i) {
        const int d = static_cast<int>(diagonals[i]);
        const Square land = jump_landing[at][d];
        if (land == no_square) {
            continue;
        }
        const Bitboard over = square_bb(neighbour[at][d]);
        if ((them & over) == 0 || (empty & square_bb(land)) == 0) {
            continue;
        }
        extended = true;
        m.landing[m.jumps++] = static_cast<std::uint8_t>(land);
        m.captured |= over;
        if (!promoted && rank_of(land) == far_rank(us)) {
            m.to = static_cast<std::uint8_t>(land);  // promotion ends the turn at once
            emit(m);
        } else {
            extend_chain(land, them & ~over, empty | over, us, promoted, m, emit);
        }
        m.captured &= ~over;
        --m.jumps;
    }
    if (!extended && m.jumps > 0) {
        m.to = static_cast<std::uint8_t>(at);
        emit(m);
    }
}

template <class Emit>
void for_each_chain(const Position& p, Bitboard from_squares, Emit& emit) {
    const Side us = p.to_move;
    const Bitboard them = p.pieces(opposite(us));
    const Bitboard empty = ~p.occupied();
    while (from_squares != 0) {
        const Square from = pop_lsb(from_squares);
        Move m;
        m.captured = 0;
        m.from = static_cast<std::uint8_t>(from);
        m.to = m.from;
        m.type = MoveType::jump;
        m.jumps = 0;
        extend_chain(from, them, empty | square_bb(from), us, (p.promoted & square_bb(from)) != 0,
                     m, emit);
    }
}

// Where the promoted piece on s may step, slide or capture by replacement (no jumps).
Bitboard promoted_targets(const Position& p, Square s, Bitboard own, Bitboard occupied) {
    Bitboard targets = 0;
    for (const Direction d : diagonals) {
        const Square n = neighbour[s][static_cast<int>(d)];
        if (n != no_square) {
            targets |= square_bb(n) & ~occupied;  // the checkers king's step
        }
    }
    const Bitboard b = square_bb(s);
    if ((p.bishop_like() & b) != 0) {
        for (const Direction d : diagonals) {
            targets |= slide_targets(s, d, occupied);
        }
    }
    if ((p.rook_like() & b) != 0) {
        for (const Direction d : orthogonals) {
            targets |= slide_targets(s, d, occupied);
        }
    }
    return targets & ~own;
}

void push_targets(Bitboard targets, int delta, Bitboard them, MoveList& list) {
    while (targets != 0) {
        const Square to = pop_lsb(targets);
        const Bitboard to_bb = square_bb(to);
        const bool capture = (them & to_bb) != 0;
        Move m;
        m.captured = capture ? to_bb : 0;
        m.from = static_cast<std::uint8_t>(to - delta);
        m.to = static_cast<std::uint8_t>(to);
        m.type = capture ? MoveType::capture : MoveType::step;
        m.jumps = 0;
        list.push(m);
    }
}

}  // namespace

Bitboard jumpers(const Position& p) {
    const Side us = p.to_move;
    const Bitboard own = p.pieces(us);
    const Bitboard them = p.pieces(opposite(us));
    const Bitboard empty = ~p.occupied();
    const auto forward = forward_diagonals(us);
    Bitboard result = 0;
    for (const Direction d : diagonals) {
        const Direction back = opposite(d);
        const Bitboard can_jump = shift(them & shift(empty, back), back);
        const bool is_forward = d == forward[0] || d == forward[1];
        result |= can_jump & (is_forward ? own : own & p.promoted);
    }
    return result;
}

void generate_moves(const Position& p, MoveList& list) {
    const Bitboard can_jump = jumpers(p);
    if (can_jump != 0) {
        auto emit = [&list](const Move& m) { list.push(m); };
        for_each_chain(p, can_jump, emit);
        return;
    }
    const Side us = p.to_move;
    const Bitboard own = p.pieces(us);
    const Bitboard them = p.pieces(opposite(us));
    const Bitboard occupied = own | them;
    const Bitboard empty = ~occupied;
    const Bitboard men = own & ~p.promoted;
    for (const Direction d : forward_diagonals(us)) {
        const int delta = square_delta(d);
        push_targets(shift(men, d) & empty, delta, them, list);
        push_targets(shift(men & p.bishop_like(), d) & them, delta, them, list);
    }
    for (const Direction d : {forward(us), Direction::e, Direction::w}) {
        push_targets(shift(men & p.rook_like(), d) & ~own, square_delta(d), them, list);
    }
    Bitboard kings = own & p.promoted;
    while (kings != 0) {
        const Square s = pop_lsb(kings);
        Bitboard targets = promoted_targets(p, s, own, occupied);
        while (targets != 0) {
            const Square to = pop_lsb(targets);
            const bool capture = (them & square_bb(to)) != 0;
            Move m;
            m.captured = capture ? square_bb(to) : 0;
            m.from = static_cast<std::uint8_t>(s);
            m.to = static_cast<std::uint8_t>(to);
            m.type = capture ? MoveType::capture : MoveType::step;
            m.jumps = 0;
            list.push(m);
        }
    }
}

std::uint64_t count_moves(const Position& p) {
    const Bitboard can_jump = jumpers(p);
    if (can_jump != 0) {
        std::uint64_t chains = 0;
        auto emit = [&chains](const Move&) { ++chains; };
        for_each_chain(p, can_jump, emit);
        return chains;
    }
    const Side us = p.to_move;
    const Bitboard own = p.pieces(us);
    const Bitboard them = p.pieces(opposite(us));
    const Bitboard occupied = own | them;
    const Bitboard empty = ~occupied;
    const Bitboard men = own & ~p.promoted;
    std::uint64_t count = 0;
    for (const Direction d : forward_diagonals(us)) {
        count += std::popcount(shift(men, d) & empty);
        count += std::popcount(shift(men & p.bishop_like(), d) & them);
    }
    for (const Direction d : {forward(us), Direction::e, Direction::w}) {
        count += std::popcount(shift(men & p.rook_like(), d) & ~own);
    }
    Bitboard kings = own & p.promoted;
    while (kings != 0) {
        count += std::popcount(promoted_targets(p, pop_lsb(kings), own, occupied));
    }
    return count;
}

}  // namespace core::chesica
