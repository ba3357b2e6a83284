#include "core/engine/chessence_eval.h"

#include "core/chessence/movegen.h"

namespace core::engine {

namespace {

using namespace core::chessence;

constexpr std::array<std::string_view, chessence_feature_count> feature_names = {
    "men",           "reserve",     "rook_powers",   "bishop_powers",
    "knight_powers", "idle_men",    "mobility",      "drop_squares",
    "king_pressure", "king_shield", "king_exposure", "attackers_near_king"};

// The squares next to s (the king's zone).
constexpr SquareTable king_zone = [] {
    SquareTable table{};
    for (Square s = 0; s < square_count; ++s) {
        table[s] = (orthogonal_neighbours(bit(s)) | diagonal_neighbours(bit(s))) & existing_squares;
    }
    return table;
}();

// The squares at most two files and two ranks from s.
constexpr SquareTable wide_zone = [] {
    SquareTable table{};
    for (Square s = 0; s < square_count; ++s) {
        for (Square t = 0; t < square_count; ++t) {
            const int df = file_of(s) - file_of(t);
            const int dr = rank_of(s) - rank_of(t);
            if (t != s && df >= -2 && df <= 2 && dr >= -2 && dr <= 2) {
                table[s] |= bit(t);
            }
        }
        table[s] &= existing_squares;
    }
    return table;
}();

constexpr SquareTable king_lines = [] {
    SquareTable table{};
    for (Square s = 0; s < square_count; ++s) {
        table[s] = rook_lines[s] | bishop_lines[s] | knight_targets[s];
    }
    return table;
}();

struct Reach {
    int moves = 0;
    Bitboard squares = 0;  // every square some man can move to
};

// What the men of colour c can do, by their powers, ignoring checks.
Reach reach_of(const Position& p, int c) {
    const Bitboard own = p.men[c];
    const Bitboard enemy = p.men[1 - c];
    const Bitboard empty = existing_squares & ~p.occupied();
    const MoverPowers powers = mover_powers(own);
    const std::array<Bitboard, direction_count> sets = {
        slide_set<north>(powers.rook, empty, enemy),
        slide_set<east>(powers.rook, empty, enemy),
        slide_set<north_east>(powers.bishop, empty, enemy),
        slide_set<north_west>(powers.bishop, empty, enemy),
        slide_set<south>(powers.rook, empty, enemy),
        slide_set<west>(powers.rook, empty, enemy),
        slide_set<south_west>(powers.bishop, empty, enemy),
        slide_set<south_east>(powers.bishop, empty, enemy)};
    Reach reach;
    for (const Bitboard s : sets) {
        reach.moves += count(s);
        reach.squares |= s;
    }
    const Bitboard blocked = own | p.kings;
    for (Bitboard knights = powers.knight; knights != 0;) {
        const Bitboard targets = knight_targets[pop_lowest(knights)] & ~blocked;
        reach.moves += count(targets);
        reach.squares |= targets;
    }
    return reach;
}

}  // namespace

std::string_view chessence_feature_name(int i) {
    return feature_names[static_cast<std::size_t>(i)];
}

std::array<ChessenceFeatures, 2> chessence_features(const Position& p) {
    const std::array<Reach, 2> reach = {reach_of(p, 0), reach_of(p, 1)};
    std::array<ChessenceFeatures, 2> result{};
    for (int c = 0; c < 2; ++c) {
        const Bitboard own = p.men[c];
        const Bitboard enemy = p.men[1 - c];
        const MoverPowers powers = mover_powers(own);
        const Square king = p.king[c];
        auto& f = result[static_cast<std::size_t>(c)];
        auto set = [&f](ChessenceFeature feature, int value) {
            f[static_cast<std::size_t>(feature)] = value;
        };
        set(ChessenceFeature::men, count(own));
        set(ChessenceFeature::reserve, p.reserve[c]);
        set(ChessenceFeature::rook_powers, count(powers.rook));
        set(ChessenceFeature::bishop_powers, count(powers.bishop));
        set(ChessenceFeature::knight_powers, count(powers.knight));
        set(ChessenceFeature::idle_men,
            count(own & ~(powers.rook | powers.bishop | powers.knight)));
        set(ChessenceFeature::mobility, reach[c].moves);
        set(ChessenceFeature::drop_squares,
            p.reserve[c] > 0 ? count(home_squares[c] & ~p.occupied()) : 0);
        set(ChessenceFeature::king_pressure, count(reach[1 - c].squares & king_zone[king]));
        set(ChessenceFeature::king_shield, count(own & king_zone[king]));
        set(ChessenceFeature::king_exposure, count(enemy & king_lines[king]));
        set(ChessenceFeature::attackers_near_king, count(own & wide_zone[p.king[1 - c]]));
    }
    return result;
}

int evaluate_chessence(const Position& p, const ChessenceWeights& weights) {
    const auto features = chessence_features(p);
    const int us = index(p.side_to_move);
    int score = weights.tempo;
    for (int i = 0; i < chessence_feature_count; ++i) {
        score += weights.feature[i] * (features[us][i] - features[1 - us][i]);
    }
    return score;
}

}  // namespace core::engine
