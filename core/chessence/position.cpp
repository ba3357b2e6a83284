#include "core/chessence/position.h"

namespace core::chessence {

namespace {

constexpr std::uint64_t splitmix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

struct Keys {
    std::array<std::array<std::uint64_t, square_count>, 2> man{};
    std::array<std::array<std::uint64_t, reserve_capacity + 1>, 2> reserve{};
    std::array<std::uint64_t, square_count> king{};
    std::uint64_t black_to_move = 0;
};

constexpr Keys keys = [] {
    Keys k{};
    std::uint64_t state = 0x43686573'73656E63ULL;
    for (auto& side : k.man) {
        for (auto& key : side) {
            key = splitmix(state);
        }
    }
    for (auto& side : k.reserve) {
        for (auto& key : side) {
            key = splitmix(state);
        }
    }
    for (auto& key : k.king) {
        key = splitmix(state);
    }
    k.black_to_move = splitmix(state);
    return k;
}();

}  // namespace

bool same_for_repetition(const Position& a, const Position& b) {
    return a.men == b.men && a.king == b.king && a.reserve == b.reserve &&
           a.side_to_move == b.side_to_move;
}

Position start_position() {
    Position p;
    p.men = {home_squares[0], home_squares[1]};
    p.king = {static_cast<std::uint8_t>(start_king_squares[0]),
              static_cast<std::uint8_t>(start_king_squares[1])};
    p.kings = bit(start_king_squares[0]) | bit(start_king_squares[1]);
    p.reserve = {reserve_capacity, reserve_capacity};
    p.hash = compute_hash(p);
    return p;
}

std::uint64_t compute_hash(const Position& p) {
    std::uint64_t h = 0;
    for (int c = 0; c < 2; ++c) {
        for (Bitboard b = p.men[c]; b != 0;) {
            h ^= keys.man[c][pop_lowest(b)];
        }
        assert(p.reserve[c] <= reserve_capacity);
        h ^= keys.reserve[c][p.reserve[c]];
        h ^= keys.king[p.king[c]];
    }
    if (p.side_to_move == Colour::black) {
        h ^= keys.black_to_move;
    }
    return h;
}

void make_move(Position& p, Move move) {
    const int us = index(p.side_to_move);
    const int them = 1 - us;
    const Square to = move.to();
    if (move.is_drop()) {
        assert(p.reserve[us] > 0 && (p.occupied() & bit(to)) == 0);
        p.men[us] |= bit(to);
        p.hash ^= keys.man[us][to] ^ keys.reserve[us][p.reserve[us]] ^
                  keys.reserve[us][p.reserve[us] - 1];
        --p.reserve[us];
        p.quiet_plies = 0;
    } else {
        const Square from = move.from();
        assert((p.men[us] & bit(from)) != 0);
        p.men[us] ^= bit(from) | bit(to);
        p.hash ^= keys.man[us][from] ^ keys.man[us][to];
        if (move.is_capture()) {
            assert((p.men[them] & bit(to)) != 0);
            p.men[them] ^= bit(to);
            p.hash ^= keys.man[them][to];
            p.quiet_plies = 0;
        } else {
            assert((p.men[them] & bit(to)) == 0);
            ++p.quiet_plies;
        }
    }
    if (p.side_to_move == Colour::black) {
        ++p.move_number;
    }
    p.side_to_move = other(p.side_to_move);
    p.hash ^= keys.black_to_move;
}

}  // namespace core::chessence
