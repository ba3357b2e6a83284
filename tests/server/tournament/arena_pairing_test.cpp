#include "server/tournament/arena_pairing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace arena_pairing_test {

using core::Side;
using server::tournament::Candidate;
using server::tournament::group_sizes;
using server::tournament::match_group;
using server::tournament::may_pair;
using server::tournament::Pair;
using server::tournament::pair_cost;
using server::tournament::pair_waiting;
using server::tournament::PairingOptions;
using server::tournament::seat;
using server::tournament::side_history;
using server::tournament::SideHistory;

// "p" and `n` (built without operator+, which GCC 12 warns falsely about here).
std::string numbered(std::size_t n) {
    return std::string("p").append(std::to_string(n));
}

Candidate player(std::string id, int rank, int rating = 1500) {
    Candidate c;
    c.id = std::move(id);
    c.rank = rank;
    c.rating = rating;
    return c;
}

Candidate with_sides(Candidate c, const std::vector<Side>& sides) {
    c.sides = side_history(sides);
    return c;
}

bool contains(const std::vector<Pair>& pairs, const std::string& a, const std::string& b) {
    return std::any_of(pairs.begin(), pairs.end(), [&](const Pair& p) {
        return (p.first == a && p.second == b) || (p.first == b && p.second == a);
    });
}

// The least total cost among the matchings with the most pairs, by trying them all.
std::pair<std::size_t, std::int64_t> best_by_hand(const std::vector<Candidate>& group,
                                                  bool rematch_allowed) {
    int max_rank = 1;
    for (const auto& c : group) {
        max_rank = std::max(max_rank, c.rank);
    }
    std::pair<std::size_t, std::int64_t> best{0, 0};
    std::vector<bool> used(group.size(), false);
    std::function<void(std::size_t, std::size_t, std::int64_t)> go =
        [&](std::size_t from, std::size_t pairs, std::int64_t cost) {
            if (pairs > best.first || (pairs == best.first && cost < best.second)) {
                best = {pairs, cost};
            }
            for (std::size_t i = from; i < group.size(); ++i) {
                if (used[i]) {
                    continue;
                }
                used[i] = true;
                for (std::size_t j = i + 1; j < group.size(); ++j) {
                    if (!used[j] && may_pair(group[i], group[j], rematch_allowed)) {
                        used[j] = true;
                        go(i + 1, pairs + 1, cost + pair_cost(group[i], group[j], max_rank));
                        used[j] = false;
                    }
                }
                used[i] = false;
            }
        };
    go(0, 0, 0);
    return best;
}

TEST(ArenaPairing, SideHistoryCountsTheLastRunAndTheBalance) {
    const SideHistory h = side_history({Side::first, Side::second, Side::second});
    EXPECT_EQ(h.firsts_in_a_row, 0);
    EXPECT_EQ(h.seconds_in_a_row, 2);
    EXPECT_EQ(h.balance, -1);
    EXPECT_EQ(side_history({Side::first, Side::first}).firsts_in_a_row, 2);
}

TEST(ArenaPairing, TheCostIsLichessesComputedByHand) {
    // |4| × (300 + 1700 × (10 − 1) / 10) + |1500 − 1600| = 4 × 1830 + 100
    EXPECT_EQ(pair_cost(player("a", 1, 1500), player("b", 5, 1600), 10), 7420);
    // |1| × (300 + 1700 × (10 − 9) / 10) + 0 = 470
    EXPECT_EQ(pair_cost(player("a", 10), player("b", 9), 10), 470);
    // Integer division as lichess: 1700 × 2 / 3 = 1133.
    EXPECT_EQ(pair_cost(player("a", 1, 1400), player("b", 3, 1500), 3), 2 * 1433 + 100);
}

TEST(ArenaPairing, TheCheapestMatchingIsChosen) {
    // Close ratings: neighbours in rank. a–b 1575 + 500 and c–d 725 + 480 = 3280 beat a–c, b–d
    // (3150 + 10 + 2300 + 10 = 5470) and a–d, b–c (4725 + 490 + 1150 + 490 = 6855).
    auto pairs = pair_waiting(
        {player("a", 1, 2000), player("b", 2, 1500), player("c", 3, 1990), player("d", 4, 1510)},
        {});
    ASSERT_EQ(pairs.size(), 2u);
    EXPECT_TRUE(contains(pairs, "a", "b"));
    EXPECT_TRUE(contains(pairs, "c", "d"));
    // Far ratings: a–b 1575 + 1800 and c–d 725 + 1780 = 5880 lose to a–c, b–d 3160 + 2310 = 5470.
    pairs = pair_waiting(
        {player("a", 1, 2800), player("b", 2, 1000), player("c", 3, 2790), player("d", 4, 1010)},
        {});
    ASSERT_EQ(pairs.size(), 2u);
    EXPECT_TRUE(contains(pairs, "a", "c"));
    EXPECT_TRUE(contains(pairs, "b", "d"));
}

TEST(ArenaPairing, NeverTheTwoWhoJustPlayedEachOther) {
    Candidate a = player("a", 1);
    Candidate b = player("b", 2);
    a.last_opponent = "b";
    b.last_opponent = "a";
    // a–b would be the cheapest (1575 + 725 for a–b, c–d); the next best is a–c, b–d (5450
    // against a–d, b–c: 4725 + 1150).
    const auto pairs = pair_waiting({a, b, player("c", 3), player("d", 4)}, {});
    ASSERT_EQ(pairs.size(), 2u);
    EXPECT_TRUE(contains(pairs, "a", "c"));
    EXPECT_TRUE(contains(pairs, "b", "d"));
    // Only one side remembering is enough.
    Candidate c = player("c", 3);
    c.last_opponent = "d";
    EXPECT_FALSE(may_pair(c, player("d", 4), false));
    EXPECT_FALSE(may_pair(player("d", 4), c, false));
}

TEST(ArenaPairing, TheOnlyTwoMayPlayAgain) {
    Candidate a = player("a", 1);
    Candidate b = player("b", 2);
    a.last_opponent = "b";
    b.last_opponent = "a";
    EXPECT_TRUE(pair_waiting({a, b}, {}).empty());
    PairingOptions only_two;
    only_two.rematch_allowed = true;
    EXPECT_EQ(pair_waiting({a, b}, only_two).size(), 1u);
}

TEST(ArenaPairing, NeverAThirdGameInARowOnTheSameSide) {
    const Candidate two_firsts_a = with_sides(player("a", 1), {Side::first, Side::first});
    const Candidate two_firsts_b =
        with_sides(player("b", 2), {Side::second, Side::first, Side::first});
    const Candidate two_seconds_c = with_sides(player("c", 3), {Side::second, Side::second});
    const Candidate two_seconds_d = with_sides(player("d", 4), {Side::second, Side::second});
    EXPECT_FALSE(may_pair(two_firsts_a, two_firsts_b, false));
    EXPECT_FALSE(may_pair(two_seconds_c, two_seconds_d, true));
    EXPECT_TRUE(may_pair(two_firsts_a, two_seconds_c, false));
    EXPECT_EQ(seat(two_firsts_a, two_seconds_c), (Pair{"c", "a"}));
    EXPECT_EQ(seat(two_seconds_c, two_firsts_a), (Pair{"c", "a"}));
    // a–b and c–d are the cheapest by rank but not allowed: a and b each meet one of c, d.
    const auto pairs = pair_waiting({two_firsts_a, two_firsts_b, two_seconds_c, two_seconds_d}, {});
    ASSERT_EQ(pairs.size(), 2u);
    for (const auto& p : pairs) {
        EXPECT_TRUE(p.first == "c" || p.first == "d") << p.first << " " << p.second;
    }
}

TEST(ArenaPairing, FewerFirstSidesInARowGetsTheFirstSide) {
    const Candidate one_first = with_sides(player("a", 1), {Side::first});
    const Candidate none = player("b", 2);
    EXPECT_EQ(seat(one_first, none), (Pair{"b", "a"}));
    // Equal runs of first sides (0): more second sides in a row gets it.
    const Candidate two_seconds = with_sides(player("c", 3), {Side::second, Side::second});
    const Candidate one_second = with_sides(player("d", 4), {Side::first, Side::second});
    EXPECT_EQ(seat(one_second, two_seconds), (Pair{"c", "d"}));
    // Equal runs: the lower balance; then the lower placed.
    const Candidate balance_minus =
        with_sides(player("e", 5), {Side::second, Side::second, Side::first});
    const Candidate balance_plus =
        with_sides(player("f", 6), {Side::first, Side::second, Side::first});
    EXPECT_EQ(seat(balance_plus, balance_minus), (Pair{"e", "f"}));
    EXPECT_EQ(seat(player("g", 1), player("h", 2)), (Pair{"h", "g"}));
}

TEST(ArenaPairing, AnOddPlayerOutWaits) {
    const auto pairs = pair_waiting(
        {player("a", 1), player("b", 2), player("c", 3), player("d", 4), player("e", 5)}, {});
    ASSERT_EQ(pairs.size(), 2u);
    std::set<std::string> seen;
    for (const auto& p : pairs) {
        seen.insert(p.first);
        seen.insert(p.second);
    }
    EXPECT_EQ(seen.size(), 4u);
    EXPECT_TRUE(pair_waiting({player("a", 1)}, {}).empty());
    EXPECT_TRUE(pair_waiting({}, {}).empty());
}

TEST(ArenaPairing, TheFirstSecondsPairByRatingOrder) {
    PairingOptions start;
    start.rating_order = true;
    // Ranks say a b c d e f; ratings say f e | d c | b a.
    const auto pairs =
        pair_waiting({player("a", 1, 1000), player("b", 2, 1100), player("c", 3, 1200),
                      player("d", 4, 1300), player("e", 5, 1400), player("f", 6, 1500)},
                     start);
    ASSERT_EQ(pairs.size(), 3u);
    EXPECT_TRUE(contains(pairs, "f", "e"));
    EXPECT_TRUE(contains(pairs, "d", "c"));
    EXPECT_TRUE(contains(pairs, "b", "a"));
    // By cost these four would be a–b, c–d (2075 + 1225 against 3150 + 2300 for a–c, b–d).
    const auto by_cost = pair_waiting(
        {player("a", 1, 1000), player("b", 2, 1500), player("c", 3, 1000), player("d", 4, 1500)},
        start);
    EXPECT_TRUE(contains(by_cost, "b", "d"));
    EXPECT_TRUE(contains(by_cost, "a", "c"));
}

TEST(ArenaPairing, GroupsBeyondOneHundredAreEvenAndAtMostOneHundred) {
    EXPECT_EQ(group_sizes(7), (std::vector<std::size_t>{7}));
    EXPECT_EQ(group_sizes(100), (std::vector<std::size_t>{100}));
    EXPECT_EQ(group_sizes(101), (std::vector<std::size_t>{52, 49}));
    EXPECT_EQ(group_sizes(250), (std::vector<std::size_t>{84, 84, 82}));
    EXPECT_EQ(group_sizes(300), (std::vector<std::size_t>{100, 100, 100}));
    EXPECT_EQ(group_sizes(301), (std::vector<std::size_t>{76, 76, 76, 73}));
}

TEST(ArenaPairing, ThreeHundredWaitingAreMatchedWithinRankGroups) {
    std::vector<Candidate> waiting;
    for (int rank = 1; rank <= 300; ++rank) {
        waiting.push_back(player(numbered(rank), rank, 1500));
    }
    std::shuffle(waiting.begin(), waiting.end(), std::mt19937(7));
    const auto pairs = pair_waiting(waiting, {});
    ASSERT_EQ(pairs.size(), 150u);
    std::set<std::string> seen;
    for (const auto& p : pairs) {
        const int a = std::stoi(p.first.substr(1));
        const int b = std::stoi(p.second.substr(1));
        EXPECT_EQ((a - 1) / 100, (b - 1) / 100) << a << " " << b;
        // Equal ratings: the cheapest matching pairs neighbours in rank, 1–2, 3–4, …
        EXPECT_EQ(std::abs(a - b), 1) << a << " " << b;
        EXPECT_EQ(std::min(a, b) % 2, 1) << a << " " << b;
        seen.insert(p.first);
        seen.insert(p.second);
    }
    EXPECT_EQ(seen.size(), 300u);
}

TEST(ArenaPairing, BoostsMatchingIsTheCheapestOfTheLargestOnRandomGroups) {
    std::mt19937 random(43);
    for (int round = 0; round < 400; ++round) {
        const int n = 2 + static_cast<int>(random() % 9);
        std::vector<int> ranks(n);
        for (int i = 0; i < n; ++i) {
            ranks[i] = 1 + static_cast<int>(random() % 40);
        }
        std::sort(ranks.begin(), ranks.end());
        ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
        std::vector<Candidate> group;
        for (std::size_t i = 0; i < ranks.size(); ++i) {
            Candidate c = player(numbered(i), ranks[i], 1000 + static_cast<int>(random() % 1200));
            std::vector<Side> sides;
            for (int g = static_cast<int>(random() % 4); g > 0; --g) {
                sides.push_back(random() % 2 ? Side::first : Side::second);
            }
            c.sides = side_history(sides);
            group.push_back(c);
        }
        for (auto& c : group) {
            if (random() % 3 == 0) {
                c.last_opponent = group[random() % group.size()].id;
            }
        }
        int max_rank = 1;
        for (const auto& c : group) {
            max_rank = std::max(max_rank, c.rank);
        }
        const auto matches = match_group(group, false);
        std::int64_t cost = 0;
        std::set<std::size_t> used;
        for (const auto& [i, j] : matches) {
            ASSERT_TRUE(may_pair(group[i], group[j], false));
            ASSERT_TRUE(used.insert(i).second);
            ASSERT_TRUE(used.insert(j).second);
            cost += pair_cost(group[i], group[j], max_rank);
        }
        const auto best = best_by_hand(group, false);
        ASSERT_EQ(matches.size(), best.first) << "round " << round;
        ASSERT_EQ(cost, best.second) << "round " << round;
    }
}

TEST(ArenaPairing, LargerGroupsGetTheMostPairsAndNoTwoLeftOutCouldPlay) {
    std::mt19937 random(99);
    for (int round = 0; round < 60; ++round) {
        const int n = round < 30 ? 11 + round % 2 : 20 + static_cast<int>(random() % 81);
        std::vector<Candidate> group;
        for (int i = 0; i < n; ++i) {
            Candidate c = player(numbered(i), i + 1 + static_cast<int>(random() % 3),
                                 1000 + static_cast<int>(random() % 1500));
            std::vector<Side> sides;
            for (int g = static_cast<int>(random() % 4); g > 0; --g) {
                sides.push_back(random() % 2 ? Side::first : Side::second);
            }
            c.sides = side_history(sides);
            group.push_back(c);
        }
        for (auto& c : group) {
            if (random() % 2 == 0) {
                c.last_opponent = group[random() % group.size()].id;
            }
        }
        const auto matches = match_group(group, false);
        std::set<std::size_t> used;
        for (const auto& [i, j] : matches) {
            ASSERT_LT(i, j);
            ASSERT_TRUE(may_pair(group[i], group[j], false));
            ASSERT_TRUE(used.insert(i).second);
            ASSERT_TRUE(used.insert(j).second);
        }
        for (std::size_t i = 0; i < group.size(); ++i) {
            for (std::size_t j = i + 1; j < group.size(); ++j) {
                ASSERT_FALSE(!used.count(i) && !used.count(j) &&
                             may_pair(group[i], group[j], false))
                    << "round " << round << ": " << i << " and " << j << " left out";
            }
        }
        if (n <= 12) {
            ASSERT_EQ(matches.size(), best_by_hand(group, false).first) << "round " << round;
        }
    }
}

}  // namespace arena_pairing_test
