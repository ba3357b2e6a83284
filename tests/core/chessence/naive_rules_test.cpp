// The fast move generator against a slow one written straight from the wording of RULES.md §1
// (square by square, no bitboards), on many positions of random games.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>

#include "chessence_test_support.h"
#include "core/chessence/playout.h"

namespace {

using namespace chessence_test;

struct NaiveBoard {
    std::array<char, square_count> cell{};  // '.', '*', 'K', 'k', 'M', 'm'
    std::array<int, 2> reserve{};
    bool white_to_move = true;
};

NaiveBoard naive_from(const Position& p) {
    NaiveBoard b;
    for (Square s = 0; s < square_count; ++s) {
        const Bitboard m = bit(s);
        b.cell[s] = is_missing(s)                     ? '*'
                    : (p.kings & m) && p.king[0] == s ? 'K'
                    : (p.kings & m)                   ? 'k'
                    : (p.men[0] & m)                  ? 'M'
                    : (p.men[1] & m)                  ? 'm'
                                                      : '.';
    }
    b.reserve = {p.reserve[0], p.reserve[1]};
    b.white_to_move = p.side_to_move == Colour::white;
    return b;
}

bool on_board(int f, int r) {
    return f >= 0 && f < file_count && r >= 0 && r < rank_count;
}

char at(const NaiveBoard& b, int f, int r) {
    return on_board(f, r) ? b.cell[r * 6 + f] : '*';
}

const int orthogonal[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
const int diagonal[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};

// Squares the man on (f, r) could move onto, kings included (for the check test).
std::set<Square> reach(const NaiveBoard& b, int f, int r) {
    const char man = at(b, f, r);
    const char king = man == 'M' ? 'K' : 'k';
    auto has_friend = [&](const int(*offsets)[2], int n) {
        for (int i = 0; i < n; ++i) {
            // Relations look only at the square itself: a man there, whatever lies between.
            if (at(b, f + offsets[i][0], r + offsets[i][1]) == man) {
                return true;
            }
        }
        return false;
    };
    std::set<Square> out;
    auto slide = [&](const int(*dirs)[2]) {
        for (int i = 0; i < 4; ++i) {
            for (int x = f + dirs[i][0], y = r + dirs[i][1]; at(b, x, y) != '*';
                 x += dirs[i][0], y += dirs[i][1]) {
                const char c = at(b, x, y);
                if (c != man && c != king) {
                    out.insert(y * 6 + x);
                }
                if (c != '.') {
                    break;
                }
            }
        }
    };
    if (has_friend(orthogonal, 4)) {
        slide(orthogonal);
    }
    if (has_friend(diagonal, 4)) {
        slide(diagonal);
    }
    if (has_friend(knight, 8)) {
        for (const auto& k : knight) {
            const char c = at(b, f + k[0], r + k[1]);
            if (c != '*' && c != man && c != king) {
                out.insert((r + k[1]) * 6 + f + k[0]);
            }
        }
    }
    return out;
}

bool king_attacked(const NaiveBoard& b, bool white_king) {
    const char king = white_king ? 'K' : 'k';
    const char enemy = white_king ? 'm' : 'M';
    Square target = 0;
    for (Square s = 0; s < square_count; ++s) {
        target = b.cell[s] == king ? s : target;
    }
    for (Square s = 0; s < square_count; ++s) {
        if (b.cell[s] == enemy && reach(b, s % 6, s / 6).count(target) > 0) {
            return true;
        }
    }
    return false;
}

std::set<std::string> naive_legal(const NaiveBoard& b) {
    const char man = b.white_to_move ? 'M' : 'm';
    std::set<std::string> out;
    auto keep_if_safe = [&](NaiveBoard after, const std::string& name) {
        if (!king_attacked(after, b.white_to_move)) {
            out.insert(name);
        }
    };
    for (Square s = 0; s < square_count; ++s) {
        if (b.cell[s] != man) {
            continue;
        }
        for (const Square to : reach(b, s % 6, s / 6)) {
            if (b.cell[to] == 'K' || b.cell[to] == 'k') {
                continue;  // never captured
            }
            NaiveBoard after = b;
            after.cell[to] = man;
            after.cell[s] = '.';
            keep_if_safe(after, square_name(s) + (b.cell[to] == '.' ? "-" : "x") + square_name(to));
        }
    }
    const int us = b.white_to_move ? 0 : 1;
    const char* homes[2] = {"d2 d3 e1 e2 e3 f2", "a8 b7 b8 b9 c7 c8"};
    if (b.reserve[us] > 0) {
        for (int i = 0; i < 6; ++i) {
            const Square to = (homes[us][i * 3 + 1] - '1') * 6 + (homes[us][i * 3] - 'a');
            if (b.cell[to] == '.') {
                NaiveBoard after = b;
                after.cell[to] = man;
                keep_if_safe(after, std::string(1, '@').append(square_name(to)));
            }
        }
    }
    return out;
}

TEST(ChessenceNaiveRules, FastGeneratorAgreesWithTheWordingOfTheRules) {
    Rng rng(2024);
    int positions = 0;
    for (int game = 0; game < 150; ++game) {
        Position p = start_position();
        for (int ply = 0; ply < 120; ++ply) {
            const auto fast = legal_names(p);
            const auto naive = naive_legal(naive_from(p));
            ASSERT_EQ(std::set<std::string>(fast.begin(), fast.end()), naive) << position_string(p);
            ASSERT_EQ(in_check(p), king_attacked(naive_from(p), p.side_to_move == Colour::white));
            ++positions;
            if (fast.empty()) {
                break;
            }
            MoveList list;
            generate_legal(p, list);
            make_move(p,
                      list[static_cast<int>(rng.below(static_cast<std::uint32_t>(list.size())))]);
        }
    }
    EXPECT_GT(positions, 5000);
}

TEST(ChessenceNaiveRules, NaiveRulesGiveTheReferencePerftToDepthTwo) {
    // Guards the slow generator itself against the published numbers.
    const NaiveBoard start = naive_from(start_position());
    EXPECT_EQ(naive_legal(start).size(), 36u);
    std::uint64_t leaves = 0;
    for (const auto& name : naive_legal(start)) {
        Position p = start_position();
        make_move(p, *parse_move(p, name));
        leaves += naive_legal(naive_from(p)).size();
    }
    EXPECT_EQ(leaves, 1294u);
}

}  // namespace
