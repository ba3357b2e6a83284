#pragma once
// A Sniderman position: the pieces on the 4x4 board and the number of the next ply. Copying is
// cheap (16 bytes); capture generation and making a capture allocate nothing.
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/expected.h"
#include "core/sniderman/attacks.h"
#include "core/sniderman/types.h"

namespace core::sniderman {

struct Position {
    std::uint64_t cells = 0;              // nibble s holds the PieceCode on square s
    std::array<Bitboard, 2> by_colour{};  // White's and Black's squares
    int ply = 1;                          // the number of the next ply (odd: ODD moves)

    PieceCode at(Square s) const { return static_cast<PieceCode>((cells >> (4 * s)) & 0xF); }
    Bitboard occupied() const { return static_cast<Bitboard>(by_colour[0] | by_colour[1]); }
    int piece_count() const { return square_count_of(occupied()); }
    bool odd_to_move() const { return ply % 2 == 1; }

    // Puts p (not no_piece) on the empty square s.
    void put(Square s, PieceCode p);

    friend bool operator==(const Position&, const Position&) = default;
};

// The reference position of RULES.md §3.
inline constexpr std::string_view reference_fen = "qbnr/rnbk/KBNR/RNBQ 1";

// Parses `<rank 4>/<rank 3>/<rank 2>/<rank 1> <next ply number>`; the error says what is wrong.
Expected<Position> parse_position(std::string_view text);
// The position string; parse_position(format_position(p)) == p.
std::string format_position(const Position& p);

// Calls f(from, targets) for each piece of p that can capture, White's pieces first, each colour
// by ascending square; targets is the set of pieces of the other colour it attacks. Stops as soon
// as f returns true, and returns whether it did.
template <class F>
inline bool for_each_attacker(const Position& p, F&& f) {
    const Bitboard occupied = p.occupied();
    for (int c = 0; c < 2; ++c) {
        const Bitboard victims = p.by_colour[1 - c];
        unsigned pieces = p.by_colour[c];
        while (pieces != 0) {
            const Square from = std::countr_zero(pieces);
            pieces &= pieces - 1;
            const unsigned targets = attack_table(kind_of(p.at(from)), from, occupied) & victims;
            if (targets != 0 && f(from, targets)) {
                return true;
            }
        }
    }
    return false;
}

// Every capture in p (by either colour, of a piece of the other colour), grouped by the capturing
// piece's square in ascending order.
inline MoveList generate_captures(const Position& p) {
    MoveList list;
    for_each_attacker(p, [&](Square from, unsigned targets) {
        while (targets != 0) {
            const Square to = std::countr_zero(targets);
            targets &= targets - 1;
            list.push(Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)});
        }
        return false;
    });
    return list;
}

// Whether any capture exists in p (the round goes on).
inline bool has_capture(const Position& p) {
    return for_each_attacker(p, [](Square, unsigned) { return true; });
}

// The position after capture m, which must be one of generate_captures(p).
inline Position make_move(const Position& p, Move m) {
    Position next = p;
    const PieceCode mover = p.at(m.from);
    const auto from_shift = 4 * static_cast<unsigned>(m.from);
    const auto to_shift = 4 * static_cast<unsigned>(m.to);
    next.cells &= ~((std::uint64_t{0xF} << from_shift) | (std::uint64_t{0xF} << to_shift));
    next.cells |= std::uint64_t{mover} << to_shift;
    const int mover_side = colour_index(colour_of(mover));
    next.by_colour[mover_side] ^= static_cast<Bitboard>(square_bit(m.from) | square_bit(m.to));
    next.by_colour[1 - mover_side] ^= square_bit(m.to);
    ++next.ply;
    return next;
}

// Parses "a1xb2" or "a1-b2" (squares only; legality is the caller's business).
Expected<Move> parse_move(std::string_view text);

// The capture named by text if it is legal in p.
Expected<Move> parse_legal_move(const Position& p, std::string_view text);

// The number of capture sequences of `depth` plies from p.
std::uint64_t perft(const Position& p, int depth);

}  // namespace core::sniderman
