#include "core/engine/chesica_eval.h"

#include <bit>

#include "core/chesica/bitboard.h"
#include "core/chesica/movegen.h"

namespace core::engine {

namespace {

using namespace core::chesica;

constexpr std::array<std::string_view, chesica_feature_count> feature_names = {
    "bishops",        "rooks",           "queens",      "promoted_bishops",
    "promoted_rooks", "promoted_queens", "advancement", "near_promotion",
    "back_rank",      "mobility",        "hanging"};

constexpr std::array<Direction, 4> diagonals = {Direction::ne, Direction::nw, Direction::se,
                                                Direction::sw};

// The pieces of `victim` that a piece of the other side could jump first, were it to move.
Bitboard jumpable(const Position& p, Side victim) {
    const Side attacker = opposite(victim);
    const Bitboard own = p.pieces(attacker);
    const Bitboard targets = p.pieces(victim);
    const Bitboard empty = ~p.occupied();
    const auto forward = forward_diagonals(attacker);
    Bitboard result = 0;
    for (const Direction d : diagonals) {
        const bool is_forward = d == forward[0] || d == forward[1];
        const Bitboard jumpers = is_forward ? own : own & p.promoted;
        result |= shift(jumpers, d) & targets & shift(empty, opposite(d));
    }
    return result;
}

// Sum over the unpromoted pieces of side s of how many ranks each has advanced.
int advancement(Bitboard men, Side s) {
    int total = 0;
    while (men != 0) {
        const int rank = rank_of(pop_lsb(men));
        total += s == Side::first ? rank : 7 - rank;
    }
    return total;
}

}  // namespace

std::string_view chesica_feature_name(int i) {
    return feature_names[static_cast<std::size_t>(i)];
}

std::array<ChesicaFeatures, 2> chesica_features(const Position& p) {
    std::array<ChesicaFeatures, 2> result{};
    for (int c = 0; c < 2; ++c) {
        const Side s = c == 0 ? Side::first : Side::second;
        const Bitboard own = p.by_side[c];
        const Bitboard men = own & ~p.promoted;
        const Bitboard kings = own & p.promoted;
        auto& f = result[static_cast<std::size_t>(c)];
        auto set = [&f](ChesicaFeature feature, int value) {
            f[static_cast<std::size_t>(feature)] = value;
        };
        auto kind = [&p](Kind k) { return p.by_kind[static_cast<int>(k)]; };
        set(ChesicaFeature::bishops, std::popcount(men & kind(Kind::bishop)));
        set(ChesicaFeature::rooks, std::popcount(men & kind(Kind::rook)));
        set(ChesicaFeature::queens, std::popcount(men & kind(Kind::queen)));
        set(ChesicaFeature::promoted_bishops, std::popcount(kings & kind(Kind::bishop)));
        set(ChesicaFeature::promoted_rooks, std::popcount(kings & kind(Kind::rook)));
        set(ChesicaFeature::promoted_queens, std::popcount(kings & kind(Kind::queen)));
        set(ChesicaFeature::advancement, advancement(men, s));
        const Bitboard near = s == Side::first ? rank_bb(5) | rank_bb(6) : rank_bb(1) | rank_bb(2);
        set(ChesicaFeature::near_promotion, std::popcount(men & near));
        set(ChesicaFeature::back_rank, std::popcount(men & rank_bb(7 - far_rank(s))));
        Position mover = p;
        mover.to_move = s;
        set(ChesicaFeature::mobility, static_cast<int>(count_moves(mover)));
        set(ChesicaFeature::hanging, std::popcount(jumpable(p, s)));
    }
    return result;
}

int evaluate_chesica(const Position& p, const ChesicaWeights& weights) {
    const auto features = chesica_features(p);
    const int us = side_index(p.to_move);
    int score = weights.tempo;
    for (int i = 0; i < chesica_feature_count; ++i) {
        score += weights.feature[i] * (features[us][i] - features[1 - us][i]);
    }
    return score;
}

}  // namespace core::engine
