#include "server/tournament/matching.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace matching_test {

using server::tournament::cheapest_maximum_matching;
using server::tournament::Matching;
using server::tournament::maximum_matching_size;

TEST(Matching, TheCheapestOfTheLargestIsChosen) {
    // 0–1 is cheapest, but it leaves 2 and 3 unpaired (they may not meet): 0–2, 1–3 instead.
    const std::vector<std::vector<std::int64_t>> cost{
        {0, 1, 50, 60}, {1, 0, 70, 40}, {50, 70, 0, -1}, {60, 40, -1, 0}};
    const auto allowed = [&](std::size_t i, std::size_t j) { return cost[i][j] >= 0; };
    const auto price = [&](std::size_t i, std::size_t j) { return cost[i][j]; };
    EXPECT_EQ(cheapest_maximum_matching(4, allowed, price), (Matching{{0, 2}, {1, 3}}));
    EXPECT_EQ(maximum_matching_size(4, allowed), 2u);
    EXPECT_TRUE(cheapest_maximum_matching(1, allowed, price).empty());
    EXPECT_EQ(maximum_matching_size(0, allowed), 0u);
}

TEST(Matching, LargeGroupsKeepTheMostPairs) {
    // 30 players on a path, each allowed only with its neighbours: the one perfect matching,
    // though the pairs it needs are the dear ones.
    const std::size_t n = 30;
    const auto allowed = [](std::size_t i, std::size_t j) { return i + 1 == j || j + 1 == i; };
    const auto price = [](std::size_t i, std::size_t j) {
        return static_cast<std::int64_t>(std::min(i, j) % 2 == 0 ? 9 : 1);
    };
    Matching expected;
    for (std::size_t i = 0; i < n; i += 2) {
        expected.emplace_back(i, i + 1);
    }
    EXPECT_EQ(cheapest_maximum_matching(n, allowed, price), expected);
    EXPECT_EQ(maximum_matching_size(n, allowed), 15u);
    EXPECT_EQ(maximum_matching_size(n - 1, allowed), 14u);
}

}  // namespace matching_test
