#pragma once
// Sniderman's Chessence (RULES.md §3): squares, pieces and captures on the 4x4 board.
// A square is rank * 4 + file (a1 = 0, d1 = 3, a4 = 12, d4 = 15); a bitboard has bit s for square
// s.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace core::sniderman {

using Bitboard = std::uint16_t;
using Square = int;

constexpr int board_files = 4;
constexpr int square_count = 16;

constexpr int file_of(Square s) {
    return s % board_files;
}
constexpr int rank_of(Square s) {
    return s / board_files;
}
constexpr Square make_square(int file, int rank) {
    return rank * board_files + file;
}
constexpr Bitboard square_bit(Square s) {
    return static_cast<Bitboard>(1u << s);
}

namespace detail {
constexpr std::array<std::uint8_t, 256> make_bit_counts() {
    std::array<std::uint8_t, 256> counts{};
    for (int i = 1; i < 256; ++i) {
        counts[static_cast<std::size_t>(i)] =
            static_cast<std::uint8_t>(counts[static_cast<std::size_t>(i / 2)] + (i & 1));
    }
    return counts;
}
inline constexpr auto bit_counts = make_bit_counts();
}  // namespace detail

// The number of squares in b (a table: without a popcount instruction std::popcount is a call).
constexpr int square_count_of(Bitboard b) {
    return detail::bit_counts[b & 0xFF] + detail::bit_counts[b >> 8];
}

// The light squares b1 d1 a2 c2 b3 d3 a4 c4 (a1 is dark): file + rank is odd.
constexpr bool is_red(Square s) {
    return (file_of(s) + rank_of(s)) % 2 == 1;
}
constexpr bool is_edge_rank(Square s) {
    return rank_of(s) == 0 || rank_of(s) == 3;
}

enum class Colour : std::uint8_t { white, black };
// In rank order: a smaller value outranks a larger one (K > Q > R > B > N).
enum class Kind : std::uint8_t { king = 1, queen, rook, bishop, knight };

// A piece in one nibble: 0 is an empty square, the kind (1..5) for White, kind | 8 for Black.
using PieceCode = std::uint8_t;
constexpr PieceCode no_piece = 0;
constexpr PieceCode black_bit = 8;

constexpr PieceCode make_piece(Colour c, Kind k) {
    return static_cast<PieceCode>(static_cast<int>(k) | (c == Colour::black ? black_bit : 0));
}
constexpr Colour colour_of(PieceCode p) {
    return (p & black_bit) ? Colour::black : Colour::white;
}
constexpr Kind kind_of(PieceCode p) {
    return static_cast<Kind>(p & 7);
}
constexpr int colour_index(Colour c) {
    return c == Colour::white ? 0 : 1;
}
constexpr Colour other(Colour c) {
    return c == Colour::white ? Colour::black : Colour::white;
}

// Whether piece a outranks piece b (K > Q > R > B > N; equal is not higher).
constexpr bool outranks(PieceCode a, PieceCode b) {
    return (a & 7) < (b & 7);
}

// A capture: the piece on `from` takes the piece on `to`. Trivial (no initialisers) so move lists
// cost nothing to create; write Move{} for a zeroed one.
struct Move {
    std::uint8_t from;
    std::uint8_t to;
    friend bool operator==(const Move&, const Move&) = default;
};

// Every capture of one position; no position has more than 16 pieces x 8 directions of them.
struct MoveList {
    std::array<Move, 128> moves;
    int size = 0;

    void push(Move m) { moves[static_cast<std::size_t>(size++)] = m; }
    const Move* begin() const { return moves.data(); }
    const Move* end() const { return moves.data() + size; }
    const Move& operator[](int i) const { return moves[static_cast<std::size_t>(i)]; }
};

// "a1", "d4".
std::string square_name(Square s);
// "a1xb2".
std::string move_name(Move m);
// The piece letter as the position string writes it ("K", "n").
char piece_letter(PieceCode p);

}  // namespace core::sniderman
