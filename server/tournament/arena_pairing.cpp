#include "server/tournament/arena_pairing.h"

#include <algorithm>
#include <cstdlib>
#include <tuple>
#include <utility>

#include "server/tournament/matching.h"

namespace server::tournament {

namespace {

using Matches = std::vector<std::pair<std::size_t, std::size_t>>;

bool just_played(const Candidate& a, const Candidate& b) {
    return a.last_opponent == b.id || b.last_opponent == a.id;
}

// Rating order (the first seconds): the best rated waiting player with the next one below them
// that they may play, and so on down the list.
Matches rating_order_matching(const std::vector<Candidate>& waiting, bool rematch_allowed) {
    std::vector<std::size_t> order(waiting.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::tie(waiting[b].rating, waiting[a].rank) <
               std::tie(waiting[a].rating, waiting[b].rank);
    });
    std::vector<bool> taken(waiting.size(), false);
    Matches matches;
    for (std::size_t x = 0; x < order.size(); ++x) {
        if (taken[order[x]]) {
            continue;
        }
        for (std::size_t y = x + 1; y < order.size(); ++y) {
            if (!taken[order[y]] &&
                may_pair(waiting[order[x]], waiting[order[y]], rematch_allowed)) {
                taken[order[x]] = taken[order[y]] = true;
                matches.emplace_back(order[x], order[y]);
                break;
            }
        }
    }
    return matches;
}

}  // namespace

SideHistory side_history(const std::vector<core::Side>& sides) {
    SideHistory history;
    for (const core::Side side : sides) {
        if (side == core::Side::first) {
            ++history.firsts_in_a_row;
            history.seconds_in_a_row = 0;
            ++history.balance;
        } else {
            ++history.seconds_in_a_row;
            history.firsts_in_a_row = 0;
            --history.balance;
        }
    }
    return history;
}

bool may_pair(const Candidate& a, const Candidate& b, bool rematch_allowed) {
    if (a.id == b.id) {
        return false;
    }
    if (!rematch_allowed && just_played(a, b)) {
        return false;
    }
    // Whatever seat each gets, one of two players both due a third game on one side gets it.
    const bool both_first = a.sides.firsts_in_a_row >= max_same_side_in_a_row &&
                            b.sides.firsts_in_a_row >= max_same_side_in_a_row;
    const bool both_second = a.sides.seconds_in_a_row >= max_same_side_in_a_row &&
                             b.sides.seconds_in_a_row >= max_same_side_in_a_row;
    return !both_first && !both_second;
}

std::int64_t pair_cost(const Candidate& a, const Candidate& b, int max_rank) {
    const std::int64_t top = std::max(max_rank, 1);
    const std::int64_t better = std::min(a.rank, b.rank);
    const std::int64_t factor = rank_factor_low + rank_factor_span * (top - better) / top;
    return std::llabs(static_cast<std::int64_t>(a.rank) - b.rank) * factor +
           std::llabs(static_cast<std::int64_t>(a.rating) - b.rating);
}

Pair seat(const Candidate& a, const Candidate& b) {
    const auto a_first = [&] {
        if (a.sides.firsts_in_a_row != b.sides.firsts_in_a_row) {
            return a.sides.firsts_in_a_row < b.sides.firsts_in_a_row;
        }
        if (a.sides.seconds_in_a_row != b.sides.seconds_in_a_row) {
            return a.sides.seconds_in_a_row > b.sides.seconds_in_a_row;
        }
        if (a.sides.balance != b.sides.balance) {
            return a.sides.balance < b.sides.balance;
        }
        return a.rank > b.rank;
    }();
    return a_first ? Pair{a.id, b.id} : Pair{b.id, a.id};
}

std::vector<std::size_t> group_sizes(std::size_t waiting) {
    if (waiting <= max_matching_group) {
        return {waiting};
    }
    const std::size_t groups = (waiting + max_matching_group - 1) / max_matching_group;
    std::size_t size = (waiting + groups - 1) / groups;
    size += size % 2;
    std::vector<std::size_t> sizes;
    for (std::size_t left = waiting; left > 0;) {
        sizes.push_back(std::min(size, left));
        left -= sizes.back();
    }
    return sizes;
}

std::vector<std::pair<std::size_t, std::size_t>> match_group(const std::vector<Candidate>& group,
                                                             bool rematch_allowed) {
    if (group.size() < 2) {
        return {};
    }
    int max_rank = 1;
    for (const auto& c : group) {
        max_rank = std::max(max_rank, c.rank);
    }
    return cheapest_maximum_matching(
        group.size(),
        [&](std::size_t i, std::size_t j) { return may_pair(group[i], group[j], rematch_allowed); },
        [&](std::size_t i, std::size_t j) { return pair_cost(group[i], group[j], max_rank); });
}

std::vector<Pair> pair_waiting(std::vector<Candidate> waiting, const PairingOptions& options) {
    std::sort(waiting.begin(), waiting.end(), [](const Candidate& a, const Candidate& b) {
        return std::tie(a.rank, a.id) < std::tie(b.rank, b.id);
    });
    Matches matches;
    if (options.rating_order) {
        matches = rating_order_matching(waiting, options.rematch_allowed);
    } else {
        std::size_t from = 0;
        for (const std::size_t size : group_sizes(waiting.size())) {
            const std::vector<Candidate> group(waiting.begin() + from,
                                               waiting.begin() + from + size);
            for (const auto& [i, j] : match_group(group, options.rematch_allowed)) {
                matches.emplace_back(from + i, from + j);
            }
            from += size;
        }
    }
    for (auto& [i, j] : matches) {
        if (j < i) {
            std::swap(i, j);
        }
    }
    std::sort(matches.begin(), matches.end());
    std::vector<Pair> pairs;
    pairs.reserve(matches.size());
    for (const auto& [i, j] : matches) {
        pairs.push_back(seat(waiting[i], waiting[j]));
    }
    return pairs;
}

}  // namespace server::tournament
