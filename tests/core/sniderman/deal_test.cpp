#include "core/sniderman/deal.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <set>

namespace core::sniderman {
namespace {

TEST(SnidermanDeal, FullBoardWithTheSixteenPieces) {
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const Position p = deal(seed);
        EXPECT_EQ(p.piece_count(), 16);
        EXPECT_EQ(p.ply, 1);
        std::array<int, 16> count{};
        for (Square s = 0; s < square_count; ++s) {
            ++count[p.at(s)];
        }
        for (const Colour c : {Colour::white, Colour::black}) {
            EXPECT_EQ(count[make_piece(c, Kind::king)], 1);
            EXPECT_EQ(count[make_piece(c, Kind::queen)], 1);
            EXPECT_EQ(count[make_piece(c, Kind::rook)], 2);
            EXPECT_EQ(count[make_piece(c, Kind::bishop)], 2);
            EXPECT_EQ(count[make_piece(c, Kind::knight)], 2);
        }
        EXPECT_TRUE(has_capture(p)) << format_position(p);
    }
}

TEST(SnidermanDeal, SameSeedSameDealEverywhere) {
    EXPECT_EQ(deal(42), deal(42));
    EXPECT_NE(deal(42), deal(43));
    // Fixed outputs of the portable generator (splitmix64 from seed 0, as published).
    Rng rng(0);
    EXPECT_EQ(rng.next(), 0xE220A8397B1DCDAFull);
    EXPECT_EQ(rng.next(), 0x6E789E6AA1B965F4ull);
    std::set<std::string> distinct;
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
        distinct.insert(format_position(deal(seed)));
    }
    EXPECT_EQ(distinct.size(), 100u);
}

TEST(SnidermanDeal, BoundedIntegersStayInRange) {
    Rng rng(7);
    std::array<int, 3> hits{};
    for (int i = 0; i < 3000; ++i) {
        const auto r = rng.below(3);
        ASSERT_LT(r, 3u);
        ++hits[r];
    }
    for (const int h : hits) {
        EXPECT_NEAR(h, 1000, 150);
    }
}

// Each piece should be equally likely on each square: the white king lands on every square about
// 1/16 of the time and a black knight about 2/16 (chi-square over 16 squares, far from the limit).
TEST(SnidermanDeal, PiecesLookUniformOverSquares) {
    constexpr int deals = 16000;
    std::array<int, square_count> king{};
    std::array<int, square_count> knight{};
    for (std::uint64_t seed = 0; seed < deals; ++seed) {
        const Position p = deal(derive_seed(99, seed));
        for (Square s = 0; s < square_count; ++s) {
            king[s] += p.at(s) == make_piece(Colour::white, Kind::king) ? 1 : 0;
            knight[s] += p.at(s) == make_piece(Colour::black, Kind::knight) ? 1 : 0;
        }
    }
    const auto chi_square = [](const std::array<int, square_count>& counts, double expected) {
        double sum = 0;
        for (const int c : counts) {
            sum += (c - expected) * (c - expected) / expected;
        }
        return sum;
    };
    // 15 degrees of freedom: 37.7 is the 0.1% tail.
    EXPECT_LT(chi_square(king, deals / 16.0), 37.7);
    EXPECT_LT(chi_square(knight, deals * 2 / 16.0), 37.7);
}

}  // namespace
}  // namespace core::sniderman
