#pragma once
// The words of Chessence as types: squares on the 6 x 9 board, the two colours, bitboards and
// moves. First file of the chain types -> board_geometry -> position -> movegen -> perft.
#include <bit>
#include <cassert>
#include <cstdint>

namespace core::chessence {

using Bitboard = std::uint64_t;

constexpr int file_count = 6;
constexpr int rank_count = 9;
constexpr int square_count = file_count * rank_count;  // 54, of which 46 exist
constexpr int reserve_capacity = 3;                    // men in reserve at the start

// index = rank * 6 + file, a1 = 0, f9 = 53.
using Square = int;

constexpr Square make_square(int file, int rank) {
    return rank * file_count + file;
}
constexpr int file_of(Square s) {
    return s % file_count;
}
constexpr int rank_of(Square s) {
    return s / file_count;
}
constexpr Bitboard bit(Square s) {
    return Bitboard{1} << s;
}

enum class Colour : std::uint8_t { white, black };

constexpr Colour other(Colour c) {
    return c == Colour::white ? Colour::black : Colour::white;
}
constexpr int index(Colour c) {
    return static_cast<int>(c);
}

// Lowest set square of a non-empty set.
inline Square lowest(Bitboard b) {
    assert(b != 0);
    return std::countr_zero(b);
}
// Highest set square of a non-empty set.
inline Square highest(Bitboard b) {
    assert(b != 0);
    return 63 - std::countl_zero(b);
}
// Removes and returns the lowest square of a non-empty set.
inline Square pop_lowest(Bitboard& b) {
    const Square s = lowest(b);
    b &= b - 1;
    return s;
}
inline int count(Bitboard b) {
    return std::popcount(b);
}

// Marks the few hottest functions (move counting and picking): on x86-64 Linux without a popcnt
// baseline they are compiled twice, with and without the popcnt instruction, and the loader picks
// the one the processor supports (std::popcount is otherwise a library call).
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__POPCNT__)
#define CHESSENCE_HOT __attribute__((target_clones("popcnt", "default")))
#else
#define CHESSENCE_HOT
#endif

enum class MoveKind : std::uint8_t { quiet, capture, drop };

// A move in 16 bits: from (6 bits), to (6 bits), kind (2 bits). A drop has from == to.
class Move {
public:
    constexpr Move() = default;
    static constexpr Move quiet(Square from, Square to) { return Move(from, to, MoveKind::quiet); }
    static constexpr Move capture(Square from, Square to) {
        return Move(from, to, MoveKind::capture);
    }
    static constexpr Move drop(Square to) { return Move(to, to, MoveKind::drop); }

    constexpr Square from() const { return bits_ & 63; }
    constexpr Square to() const { return (bits_ >> 6) & 63; }
    constexpr MoveKind kind() const { return static_cast<MoveKind>(bits_ >> 12); }
    constexpr bool is_drop() const { return kind() == MoveKind::drop; }
    constexpr bool is_capture() const { return kind() == MoveKind::capture; }
    constexpr std::uint16_t raw() const { return bits_; }

    friend constexpr bool operator==(Move, Move) = default;

private:
    constexpr Move(Square from, Square to, MoveKind kind)
        : bits_(static_cast<std::uint16_t>(from | (to << 6) | (static_cast<int>(kind) << 12))) {}
    std::uint16_t bits_ = 0;
};

}  // namespace core::chessence
