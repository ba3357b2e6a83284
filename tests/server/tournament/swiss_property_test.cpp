// Swiss pairings against the absolute criteria over many random tournaments (issue 43, "Tests").
#include "server/tournament/swiss_pairing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace swiss_property_test {

// `prefix` and `n` (built without operator+, which GCC 12 warns falsely about).
std::string prop_numbered(const char* prefix, long n) {
    return std::string(prefix).append(std::to_string(n));
}

using core::Side;
using server::tournament::max_side_difference;
using server::tournament::pair_swiss_round;
using server::tournament::side_allowed;
using server::tournament::swiss_may_pair;
using server::tournament::swiss_score_order;
using server::tournament::SwissCandidate;

// Up to this many players present, the checks compare with an exhaustive search.
constexpr std::size_t brute_force_limit = 12;

// Whether `players` (restricted to the indexes not in `used`) can all be paired, by trying all.
bool prop_all_pairable(const std::vector<SwissCandidate>& players, std::vector<bool>& used) {
    std::size_t first = 0;
    while (first < players.size() && used[first]) {
        ++first;
    }
    if (first == players.size()) {
        return true;
    }
    used[first] = true;
    for (std::size_t j = first + 1; j < players.size(); ++j) {
        if (!used[j] && swiss_may_pair(players[first], players[j])) {
            used[j] = true;
            const bool ok = prop_all_pairable(players, used);
            used[j] = false;
            if (ok) {
                used[first] = false;
                return true;
            }
        }
    }
    used[first] = false;
    return false;
}

// Whether `players` can be paired with the bye to `bye` (or to nobody).
bool prop_pairable_with_bye(const std::vector<SwissCandidate>& players,
                            std::optional<std::size_t> bye) {
    std::vector<bool> used(players.size(), false);
    if (bye) {
        used[*bye] = true;
    }
    return prop_all_pairable(players, used);
}

// Whether any pairing of `players` keeps the absolute criteria.
bool prop_any_pairing(const std::vector<SwissCandidate>& players) {
    if (players.size() % 2 == 0) {
        return prop_pairable_with_bye(players, std::nullopt);
    }
    for (std::size_t k = 0; k < players.size(); ++k) {
        if (players[k].bye_eligible && prop_pairable_with_bye(players, k)) {
            return true;
        }
    }
    return false;
}

struct PropPlayer {
    SwissCandidate candidate;
    bool active = true;
    int byes = 0;
};

// One random tournament: `seed` decides the players, rounds, results, absences, late joins and
// withdrawals. Returns the number of rounds paired.
int prop_run(unsigned seed) {
    std::mt19937 random(seed);
    const auto chance = [&](int percent) {
        return std::uniform_int_distribution<int>(0, 99)(random) < percent;
    };
    const int rounds = std::uniform_int_distribution<int>(3, 15)(random);
    const int starting = std::uniform_int_distribution<int>(2, 40)(random);
    std::map<std::string, PropPlayer> players;
    int joined = 0;
    const auto join = [&] {
        PropPlayer p;
        p.candidate.id = prop_numbered("s", joined);
        p.candidate.joined = joined++;
        p.candidate.rating = std::uniform_int_distribution<int>(800, 2400)(random);
        players.emplace(p.candidate.id, p);
    };
    for (int k = 0; k < starting; ++k) {
        join();
    }
    int round = 0;
    for (; round < rounds; ++round) {
        if (2 * round < rounds && chance(30)) {
            join();
        }
        std::vector<SwissCandidate> present;
        for (auto& [id, p] : players) {
            if (p.active && round > 0 && chance(4)) {
                p.active = false;
            }
            if (p.active && (round == 0 || !chance(10))) {
                present.push_back(p.candidate);
            }
        }
        const auto pairing = pair_swiss_round(present);
        if (present.size() <= brute_force_limit) {
            EXPECT_EQ(pairing.has_value(), prop_any_pairing(present)) << "seed " << seed;
        }
        if (!pairing) {
            break;  // the tournament ends early
        }
        // Every present player exactly once, in an allowed pair with allowed seats.
        std::set<std::string> seen;
        for (const auto& pair : pairing->pairs) {
            const PropPlayer& first = players.at(pair.first);
            const PropPlayer& second = players.at(pair.second);
            EXPECT_TRUE(seen.insert(pair.first).second && seen.insert(pair.second).second);
            EXPECT_FALSE(first.candidate.met.count(pair.second)) << "rematch, seed " << seed;
            EXPECT_TRUE(side_allowed(first.candidate, Side::first)) << "seed " << seed;
            EXPECT_TRUE(side_allowed(second.candidate, Side::second)) << "seed " << seed;
        }
        if (pairing->bye) {
            EXPECT_TRUE(seen.insert(*pairing->bye).second);
            EXPECT_TRUE(players.at(*pairing->bye).candidate.bye_eligible) << "seed " << seed;
            EXPECT_EQ(present.size() % 2, 1u);
            // Nobody ranked below the bye could have taken it.
            const auto order = swiss_score_order(present);
            std::size_t at = 0;
            while (order[at].id != *pairing->bye) {
                ++at;
            }
            if (order.size() <= brute_force_limit) {
                for (std::size_t k = at + 1; k < order.size(); ++k) {
                    EXPECT_FALSE(order[k].bye_eligible && prop_pairable_with_bye(order, k))
                        << "seed " << seed << ": " << order[k].id << " could have had the bye";
                }
            }
        }
        EXPECT_EQ(seen.size(), present.size()) << "seed " << seed;
        // Results, and the players' records.
        for (const auto& pair : pairing->pairs) {
            auto& first = players.at(pair.first).candidate;
            auto& second = players.at(pair.second).candidate;
            const int result = std::uniform_int_distribution<int>(0, 2)(random);
            first.half_points += result;
            second.half_points += 2 - result;
            first.sides.push_back(Side::first);
            second.sides.push_back(Side::second);
            first.met.insert(second.id);
            second.met.insert(first.id);
        }
        if (pairing->bye) {
            auto& p = players.at(*pairing->bye);
            p.candidate.half_points += 2;
            p.candidate.bye_eligible = false;
            ++p.byes;
        }
    }
    for (const auto& [id, p] : players) {
        EXPECT_LE(p.byes, 1);
        int balance = 0;
        int run = 0;
        for (std::size_t k = 0; k < p.candidate.sides.size(); ++k) {
            balance += p.candidate.sides[k] == Side::first ? 1 : -1;
            run = k > 0 && p.candidate.sides[k] == p.candidate.sides[k - 1] ? run + 1 : 1;
            EXPECT_LE(run, 2) << id << ", seed " << seed;
            EXPECT_LE(std::abs(balance), max_side_difference) << id << ", seed " << seed;
        }
    }
    return round;
}

TEST(SwissProperty, RandomTournamentsKeepTheAbsoluteCriteria) {
    int rounds = 0;
    for (unsigned seed = 1; seed <= 400; ++seed) {
        rounds += prop_run(seed);
        if (testing::Test::HasFailure()) {
            break;
        }
    }
    EXPECT_GT(rounds, 400 * 3);  // most tournaments run several rounds
}

}  // namespace swiss_property_test
