#include "server/tournament/swiss_pairing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace swiss_pairing_test {

// `prefix` and `n` (built without operator+, which GCC 12 warns falsely about).
std::string pair_numbered(const char* prefix, long n) {
    return std::string(prefix).append(std::to_string(n));
}

using core::Side;
using server::tournament::pair_swiss_round;
using server::tournament::side_allowed;
using server::tournament::swiss_may_pair;
using server::tournament::swiss_score_order;
using server::tournament::swiss_seat;
using server::tournament::SwissCandidate;
using server::tournament::SwissPairing;

SwissCandidate swiss_player(const std::string& id, int half_points, int rating,
                            std::vector<Side> sides = {}) {
    SwissCandidate c;
    c.id = id;
    c.half_points = half_points;
    c.rating = rating;
    c.sides = std::move(sides);
    return c;
}

bool swiss_has_pair(const SwissPairing& pairing, const std::string& a, const std::string& b) {
    return std::any_of(pairing.pairs.begin(), pairing.pairs.end(), [&](const auto& p) {
        return (p.first == a && p.second == b) || (p.first == b && p.second == a);
    });
}

TEST(SwissPairing, SidesAllowedKeepTheAbsoluteCriteria) {
    EXPECT_TRUE(side_allowed(swiss_player("a", 0, 0, {Side::first}), Side::first));
    EXPECT_FALSE(side_allowed(swiss_player("a", 0, 0, {Side::first, Side::first}), Side::first));
    EXPECT_TRUE(side_allowed(swiss_player("a", 0, 0, {Side::first, Side::first}), Side::second));
    // F S F: balance +1 → +2 is allowed; F F S F F S: balance +2 → +3 is not.
    EXPECT_TRUE(side_allowed(swiss_player("a", 0, 0, {Side::first, Side::second, Side::first}),
                             Side::first));
    EXPECT_FALSE(side_allowed(swiss_player("a", 0, 0,
                                           {Side::first, Side::first, Side::second, Side::first,
                                            Side::first, Side::second}),
                              Side::first));
    auto met = swiss_player("a", 0, 0);
    met.met.insert("b");
    EXPECT_FALSE(swiss_may_pair(met, swiss_player("b", 0, 0)));
    EXPECT_FALSE(swiss_may_pair(swiss_player("a", 0, 0, {Side::first, Side::first}),
                                swiss_player("b", 0, 0, {Side::second, Side::first, Side::first})));
}

TEST(SwissPairing, TopHalfMeetsBottomHalfInAScoreGroup) {
    const auto pairing =
        pair_swiss_round({swiss_player("p4", 2, 1500), swiss_player("p1", 2, 1800),
                          swiss_player("p3", 2, 1600), swiss_player("p2", 2, 1700)});
    ASSERT_TRUE(pairing);
    EXPECT_FALSE(pairing->bye);
    ASSERT_EQ(pairing->pairs.size(), 2u);
    // Round-one seats: the higher ranked takes the first side.
    EXPECT_EQ(pairing->pairs[0], (server::tournament::Pair{"p1", "p3"}));
    EXPECT_EQ(pairing->pairs[1], (server::tournament::Pair{"p2", "p4"}));
}

TEST(SwissPairing, TheLowestOfAScoreGroupFloatsDownToTheHighestOfTheNext) {
    const auto pairing = pair_swiss_round({swiss_player("a", 4, 1900), swiss_player("b", 4, 1800),
                                           swiss_player("c", 4, 1700), swiss_player("d", 2, 1600),
                                           swiss_player("e", 2, 1500), swiss_player("f", 2, 1400)});
    ASSERT_TRUE(pairing);
    EXPECT_TRUE(swiss_has_pair(*pairing, "a", "b"));
    EXPECT_TRUE(swiss_has_pair(*pairing, "c", "d"));
    EXPECT_TRUE(swiss_has_pair(*pairing, "e", "f"));
}

TEST(SwissPairing, ARematchIsAvoidedInsideTheScoreGroup) {
    // a and b met: a meets c (same score), not a player of the lower group.
    auto a = swiss_player("a", 4, 1900);
    auto b = swiss_player("b", 4, 1800);
    a.met.insert("b");
    b.met.insert("a");
    const auto pairing =
        pair_swiss_round({a, b, swiss_player("c", 4, 1700), swiss_player("d", 4, 1600),
                          swiss_player("e", 0, 1500), swiss_player("f", 0, 1400)});
    ASSERT_TRUE(pairing);
    EXPECT_TRUE(swiss_has_pair(*pairing, "e", "f"));
    EXPECT_TRUE(swiss_has_pair(*pairing, "a", "c"));
    EXPECT_TRUE(swiss_has_pair(*pairing, "b", "d"));
}

TEST(SwissPairing, TheByeGoesToTheLowestRankedEligible) {
    std::vector<SwissCandidate> five;
    for (int k = 1; k <= 5; ++k) {
        five.push_back(swiss_player(pair_numbered("p", k), 2, 2000 - 100 * k));
    }
    EXPECT_EQ(pair_swiss_round(five)->bye, "p5");
    five[4].bye_eligible = false;
    EXPECT_EQ(pair_swiss_round(five)->bye, "p4");
    // p5 could take it, but p1 has met everyone else: p5 plays p1 and p4 gets the bye.
    five[4].bye_eligible = true;
    for (int k = 1; k <= 3; ++k) {
        five[0].met.insert(five[k].id);
        five[k].met.insert("p1");
    }
    const auto pairing = pair_swiss_round(five);
    ASSERT_TRUE(pairing);
    EXPECT_EQ(pairing->bye, "p4");
    EXPECT_TRUE(swiss_has_pair(*pairing, "p1", "p5"));
}

TEST(SwissPairing, NoPairingWhenTheAbsoluteCriteriaForbidIt) {
    auto a = swiss_player("a", 2, 1600);
    auto b = swiss_player("b", 0, 1500);
    a.met.insert("b");
    EXPECT_FALSE(pair_swiss_round({a, b}));
    auto alone = swiss_player("c", 0, 1500);
    alone.bye_eligible = false;
    EXPECT_FALSE(pair_swiss_round({alone}));
    EXPECT_EQ(pair_swiss_round({swiss_player("c", 0, 1500)})->bye, "c");
    EXPECT_TRUE(pair_swiss_round({})->pairs.empty());
}

TEST(SwissPairing, SeatsFollowTheStrongerColourPreference) {
    // Lower balance first.
    EXPECT_EQ(swiss_seat(swiss_player("a", 2, 1600, {Side::first}),
                         swiss_player("b", 2, 1500, {Side::second})),
              (server::tournament::Pair{"b", "a"}));
    // Equal balance: the one who had the second side last.
    EXPECT_EQ(swiss_seat(swiss_player("a", 2, 1600, {Side::second, Side::first}),
                         swiss_player("b", 2, 1500, {Side::first, Side::second})),
              (server::tournament::Pair{"b", "a"}));
    // The same wish: the higher ranked gets it.
    EXPECT_EQ(swiss_seat(swiss_player("a", 2, 1600, {Side::first}),
                         swiss_player("b", 2, 1500, {Side::first})),
              (server::tournament::Pair{"b", "a"}));
    EXPECT_EQ(swiss_seat(swiss_player("a", 2, 1600, {Side::second}),
                         swiss_player("b", 2, 1500, {Side::second})),
              (server::tournament::Pair{"a", "b"}));
    // Never a third second side in a row when the other seating is allowed.
    EXPECT_EQ(swiss_seat(swiss_player("a", 2, 1600,
                                      {Side::second, Side::second, Side::first, Side::first}),
                         swiss_player("b", 2, 1500, {Side::first, Side::first, Side::second})),
              (server::tournament::Pair{"b", "a"}));
}

TEST(SwissPairing, ScoreOrderIsPointsThenRatingThenJoining) {
    auto x = swiss_player("x", 2, 1500);
    auto y = swiss_player("y", 2, 1500);
    x.joined = 2;
    y.joined = 1;
    const auto order =
        swiss_score_order({x, swiss_player("z", 4, 1000), y, swiss_player("w", 2, 1700)});
    ASSERT_EQ(order.size(), 4u);
    EXPECT_EQ(order[0].id, "z");
    EXPECT_EQ(order[1].id, "w");
    EXPECT_EQ(order[2].id, "y");
    EXPECT_EQ(order[3].id, "x");
}

}  // namespace swiss_pairing_test
