#include "server/tournament/swiss_pairing.h"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <tuple>
#include <utility>

#include "server/tournament/matching.h"

namespace server::tournament {

namespace {

// A player's wish for a side: none before their first game; strength 3 when the other side would
// break the absolute criteria, 2 when their sides are unbalanced by one, 1 for the side they did
// not have last.
struct SwissSideWish {
    std::optional<core::Side> side;
    int strength = 0;
};

SwissSideWish swiss_side_wish(const SwissCandidate& player) {
    if (player.sides.empty()) {
        return {};
    }
    const SideHistory history = side_history(player.sides);
    if (history.firsts_in_a_row >= max_same_side_in_a_row) {
        return {core::Side::second, 3};
    }
    if (history.seconds_in_a_row >= max_same_side_in_a_row) {
        return {core::Side::first, 3};
    }
    if (history.balance != 0) {
        const core::Side side = history.balance > 0 ? core::Side::second : core::Side::first;
        return {side, std::abs(history.balance) >= max_side_difference ? 3 : 2};
    }
    return {core::opposite(player.sides.back()), 1};
}

// Where a player stands in their score group (players with their number of half points).
struct SwissGroupPlace {
    int position = 0;  // 0 = the group's best placed
    int size = 0;
};

std::vector<SwissGroupPlace> swiss_group_places(const std::vector<SwissCandidate>& order) {
    std::vector<SwissGroupPlace> places(order.size());
    for (std::size_t from = 0; from < order.size();) {
        std::size_t to = from;
        while (to < order.size() && order[to].half_points == order[from].half_points) {
            ++to;
        }
        for (std::size_t k = from; k < to; ++k) {
            places[k] = {static_cast<int>(k - from), static_cast<int>(to - from)};
        }
        from = to;
    }
    return places;
}

// The cost of pairing order[i] with order[j] (i < j) among `order` (score order):
// score × the square of the score difference + colour × the unmet colour wish + the distance from
// the Dutch partner (S1 against S2 in a group; the group's last against the next group's first).
struct SwissCostModel {
    const std::vector<SwissCandidate>& order;
    std::vector<SwissGroupPlace> places;
    std::int64_t colour_weight = 0;
    std::int64_t score_weight = 0;

    explicit SwissCostModel(const std::vector<SwissCandidate>& players)
        : order(players), places(swiss_group_places(players)) {
        const auto n = static_cast<std::int64_t>(players.size());
        colour_weight = n + 1;  // above any one pair's Dutch distance
        // Above everything else a whole matching can cost.
        score_weight = (n / 2 + 1) * (3 * colour_weight + n) + 1;
    }

    std::int64_t cost(std::size_t i, std::size_t j) const {
        const SwissCandidate& a = order[i];
        const SwissCandidate& b = order[j];
        const std::int64_t difference = a.half_points - b.half_points;
        const SwissGroupPlace& pa = places[i];
        const SwissGroupPlace& pb = places[j];
        std::int64_t dutch = 0;
        if (a.half_points == b.half_points) {
            dutch = std::abs((pb.position - pa.position) - pa.size / 2);
        } else {
            dutch = (pa.size - 1 - pa.position) + pb.position;
        }
        const SwissSideWish wa = swiss_side_wish(a);
        const SwissSideWish wb = swiss_side_wish(b);
        const std::int64_t unmet =
            wa.side && wb.side && *wa.side == *wb.side ? std::min(wa.strength, wb.strength) : 0;
        return difference * difference * score_weight + unmet * colour_weight + dutch;
    }
};

// Whether all of `players` can be paired keeping the absolute criteria.
bool swiss_all_pairable(const std::vector<SwissCandidate>& players) {
    if (players.size() % 2 != 0) {
        return false;
    }
    const std::size_t pairs = maximum_matching_size(
        players.size(),
        [&](std::size_t i, std::size_t j) { return swiss_may_pair(players[i], players[j]); });
    return pairs * 2 == players.size();
}

}  // namespace

std::vector<SwissCandidate> swiss_score_order(std::vector<SwissCandidate> players) {
    std::sort(players.begin(), players.end(), [](const SwissCandidate& a, const SwissCandidate& b) {
        return std::tie(b.half_points, b.rating, a.joined, a.id) <
               std::tie(a.half_points, a.rating, b.joined, b.id);
    });
    return players;
}

bool side_allowed(const SwissCandidate& player, core::Side side) {
    const SideHistory history = side_history(player.sides);
    if (side == core::Side::first) {
        return history.firsts_in_a_row < max_same_side_in_a_row &&
               history.balance + 1 <= max_side_difference;
    }
    return history.seconds_in_a_row < max_same_side_in_a_row &&
           history.balance - 1 >= -max_side_difference;
}

bool swiss_may_pair(const SwissCandidate& a, const SwissCandidate& b) {
    if (a.id == b.id || a.met.count(b.id) || b.met.count(a.id)) {
        return false;
    }
    return (side_allowed(a, core::Side::first) && side_allowed(b, core::Side::second)) ||
           (side_allowed(b, core::Side::first) && side_allowed(a, core::Side::second));
}

Pair swiss_seat(const SwissCandidate& a, const SwissCandidate& b) {
    const int balance_a = side_history(a.sides).balance;
    const int balance_b = side_history(b.sides).balance;
    bool a_first = true;
    if (balance_a != balance_b) {
        a_first = balance_a < balance_b;
    } else if (!a.sides.empty() && !b.sides.empty() && a.sides.back() != b.sides.back()) {
        a_first = a.sides.back() == core::Side::second;
    } else if (a.sides.empty() && !b.sides.empty()) {
        a_first = b.sides.back() == core::Side::first;  // b's wish: the side they had not
    } else {
        const SwissSideWish wish = swiss_side_wish(a);
        a_first = !wish.side || *wish.side == core::Side::first;
    }
    const auto keeps = [&](bool first) {
        return side_allowed(a, first ? core::Side::first : core::Side::second) &&
               side_allowed(b, first ? core::Side::second : core::Side::first);
    };
    if (!keeps(a_first) && keeps(!a_first)) {
        a_first = !a_first;
    }
    return a_first ? Pair{a.id, b.id} : Pair{b.id, a.id};
}

std::optional<SwissPairing> pair_swiss_round(std::vector<SwissCandidate> players) {
    players = swiss_score_order(std::move(players));
    SwissPairing pairing;
    std::vector<SwissCandidate> rest;
    if (players.size() % 2 == 1) {
        // The lowest ranked eligible player for whom the others can all be paired.
        for (std::size_t k = players.size(); k-- > 0 && !pairing.bye;) {
            if (!players[k].bye_eligible) {
                continue;
            }
            std::vector<SwissCandidate> others = players;
            others.erase(others.begin() + static_cast<std::ptrdiff_t>(k));
            if (swiss_all_pairable(others)) {
                pairing.bye = players[k].id;
                rest = std::move(others);
            }
        }
        if (!pairing.bye) {
            return std::nullopt;
        }
    } else {
        if (!swiss_all_pairable(players)) {
            return std::nullopt;
        }
        rest = std::move(players);
    }
    const SwissCostModel model(rest);
    const Matching matching = cheapest_maximum_matching(
        rest.size(), [&](std::size_t i, std::size_t j) { return swiss_may_pair(rest[i], rest[j]); },
        [&](std::size_t i, std::size_t j) { return model.cost(std::min(i, j), std::max(i, j)); });
    if (matching.size() * 2 != rest.size()) {
        return std::nullopt;  // not seen: the check above found a perfect matching
    }
    for (const auto& [i, j] : matching) {
        pairing.pairs.push_back(swiss_seat(rest[i], rest[j]));
    }
    return pairing;
}

}  // namespace server::tournament
