#include "server/tournament/berger.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace berger_table_test {

using namespace server::tournament;

// How many times each ordered pair (White, Black) occurs in `rounds`.
std::map<std::pair<int, int>, int> berger_meetings(const std::vector<BergerRound>& rounds) {
    std::map<std::pair<int, int>, int> seen;
    for (const auto& round : rounds) {
        for (const auto& pair : round) {
            ++seen[{pair.first, pair.second}];
        }
    }
    return seen;
}

TEST(TournamentBerger, EveryPairMeetsOnceAndNobodyPlaysTwiceInARound) {
    for (int n = min_round_robin_players; n <= max_round_robin_players; ++n) {
        SCOPED_TRACE("players " + std::to_string(n));
        const auto rounds = berger_table(n);
        ASSERT_EQ(rounds.size(), static_cast<std::size_t>(n % 2 == 0 ? n - 1 : n));
        for (const auto& round : rounds) {
            EXPECT_EQ(round.size(), static_cast<std::size_t>(n / 2));
            std::set<int> busy;
            for (const auto& pair : round) {
                EXPECT_GE(pair.first, 1);
                EXPECT_LE(pair.first, n);
                EXPECT_GE(pair.second, 1);
                EXPECT_LE(pair.second, n);
                EXPECT_TRUE(busy.insert(pair.first).second) << pair.first << " twice";
                EXPECT_TRUE(busy.insert(pair.second).second) << pair.second << " twice";
            }
        }
        const auto seen = berger_meetings(rounds);
        for (int a = 1; a <= n; ++a) {
            for (int b = a + 1; b <= n; ++b) {
                const int ab = seen.count({a, b}) ? seen.at({a, b}) : 0;
                const int ba = seen.count({b, a}) ? seen.at({b, a}) : 0;
                EXPECT_EQ(ab + ba, 1) << a << " and " << b;
            }
        }
    }
}

TEST(TournamentBerger, ColoursAreBalancedInASingleRoundRobin) {
    for (int n = min_round_robin_players; n <= max_round_robin_players; ++n) {
        SCOPED_TRACE("players " + std::to_string(n));
        std::map<int, int> whites;
        std::map<int, int> blacks;
        for (const auto& round : berger_table(n)) {
            for (const auto& pair : round) {
                ++whites[pair.first];
                ++blacks[pair.second];
            }
        }
        for (int p = 1; p <= n; ++p) {
            EXPECT_EQ(whites[p] + blacks[p], n - 1) << p;
            EXPECT_LE(std::abs(whites[p] - blacks[p]), 1) << p;
        }
    }
}

TEST(TournamentBerger, DoubleRoundRobinRepeatsTheTableWithColoursSwapped) {
    for (int n = min_round_robin_players; n <= max_round_robin_players; ++n) {
        SCOPED_TRACE("players " + std::to_string(n));
        const auto single = berger_table(n);
        const auto both = round_robin_schedule(n, true);
        ASSERT_EQ(both.size(), 2 * single.size());
        EXPECT_EQ(round_robin_schedule(n, false), single);
        for (std::size_t r = 0; r < single.size(); ++r) {
            const auto& again = both[single.size() + r];
            EXPECT_EQ(both[r], single[r]);
            ASSERT_EQ(again.size(), single[r].size());
            for (std::size_t b = 0; b < again.size(); ++b) {
                EXPECT_EQ(again[b], (BergerPair{single[r][b].second, single[r][b].first}));
            }
        }
        const auto seen = berger_meetings(both);
        for (int a = 1; a <= n; ++a) {
            for (int b = 1; b <= n; ++b) {
                if (a != b) {
                    EXPECT_EQ(seen.count({a, b}) ? seen.at({a, b}) : 0, 1) << a << "-" << b;
                }
            }
        }
    }
}

// FIDE Handbook C.05, Annex 1: the tables for 3 or 4 and for 5 or 6 players, copied by hand.
TEST(TournamentBerger, TablesForFourAndSixPlayersAreFides) {
    const std::vector<BergerRound> four = {
        {{1, 4}, {2, 3}},
        {{4, 3}, {1, 2}},
        {{2, 4}, {3, 1}},
    };
    EXPECT_EQ(berger_table(4), four);
    const std::vector<BergerRound> six = {
        {{1, 6}, {2, 5}, {3, 4}}, {{6, 4}, {5, 3}, {1, 2}}, {{2, 6}, {3, 1}, {4, 5}},
        {{6, 5}, {1, 4}, {2, 3}}, {{3, 6}, {4, 2}, {5, 1}},
    };
    EXPECT_EQ(berger_table(6), six);
}

TEST(TournamentBerger, OddCountsDropTheDummysGames) {
    // 5 players: the table of 6 without number 6; its opponent rests.
    const std::vector<BergerRound> five = {
        {{2, 5}, {3, 4}}, {{5, 3}, {1, 2}}, {{3, 1}, {4, 5}}, {{1, 4}, {2, 3}}, {{4, 2}, {5, 1}},
    };
    EXPECT_EQ(berger_table(5), five);
    const std::vector<BergerRound> three = {{{2, 3}}, {{1, 2}}, {{3, 1}}};
    EXPECT_EQ(berger_table(3), three);
}

TEST(TournamentBerger, CountsOutsideThreeToSixteenHaveNoTable) {
    EXPECT_TRUE(berger_table(2).empty());
    EXPECT_TRUE(berger_table(17).empty());
    EXPECT_TRUE(round_robin_schedule(0, true).empty());
}

}  // namespace berger_table_test
