#include "server/tournament/arena_pairing.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <tuple>
#include <utility>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/max_cardinality_matching.hpp>
#include <boost/graph/maximum_weighted_matching.hpp>

namespace server::tournament {

namespace {

using Weight = std::int64_t;
using MatchGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property,
                          boost::property<boost::edge_weight_t, Weight>>;
using Vertex = boost::graph_traits<MatchGraph>::vertex_descriptor;
using Matches = std::vector<std::pair<std::size_t, std::size_t>>;

// `improve` re-pairs three pairs at a time among this many neighbours in rank.
constexpr std::size_t improve_window = 8;

bool just_played(const Candidate& a, const Candidate& b) {
    return a.last_opponent == b.id || b.last_opponent == a.id;
}

// Whether `mate` (from the matcher) is a matching of allowed pairs of `group`.
bool valid_matching(const std::vector<Vertex>& mate, const std::vector<Candidate>& group,
                    bool rematch_allowed) {
    const Vertex none = boost::graph_traits<MatchGraph>::null_vertex();
    for (std::size_t v = 0; v < mate.size(); ++v) {
        if (mate[v] == none) {
            continue;
        }
        if (mate[v] >= mate.size() || mate[v] == v || mate[mate[v]] != v ||
            !may_pair(group[v], group[mate[v]], rematch_allowed)) {
            return false;
        }
    }
    return true;
}

// The cheapest allowed pair first, again and again: what a pass falls back on should a matcher
// hand back something that is not a matching of allowed pairs (never seen; checked anyway).
Matches greedy_matching(const std::vector<Candidate>& group, bool rematch_allowed, int max_rank) {
    std::vector<std::tuple<std::int64_t, std::size_t, std::size_t>> edges;
    for (std::size_t i = 0; i < group.size(); ++i) {
        for (std::size_t j = i + 1; j < group.size(); ++j) {
            if (may_pair(group[i], group[j], rematch_allowed)) {
                edges.emplace_back(pair_cost(group[i], group[j], max_rank), i, j);
            }
        }
    }
    std::sort(edges.begin(), edges.end());
    std::vector<bool> taken(group.size(), false);
    Matches matches;
    for (const auto& [cost, i, j] : edges) {
        if (!taken[i] && !taken[j]) {
            taken[i] = taken[j] = true;
            matches.emplace_back(i, j);
        }
    }
    return matches;
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

// Every allowed pair of `group` with its cost.
std::vector<std::tuple<std::int64_t, std::size_t, std::size_t>> allowed_edges(
    const std::vector<Candidate>& group, bool rematch_allowed, int max_rank) {
    std::vector<std::tuple<std::int64_t, std::size_t, std::size_t>> edges;
    for (std::size_t i = 0; i < group.size(); ++i) {
        for (std::size_t j = i + 1; j < group.size(); ++j) {
            if (may_pair(group[i], group[j], rematch_allowed)) {
                edges.emplace_back(pair_cost(group[i], group[j], max_rank), i, j);
            }
        }
    }
    return edges;
}

Matches matches_of(const std::vector<Vertex>& mate) {
    Matches matches;
    const Vertex none = boost::graph_traits<MatchGraph>::null_vertex();
    for (std::size_t v = 0; v < mate.size(); ++v) {
        if (mate[v] != none && v < mate[v]) {
            matches.emplace_back(v, mate[v]);
        }
    }
    return matches;
}

// A small group: every matching tried (Boost's brute_force_maximum_weighted_matching), with the
// weight big − cost, `big` above the cost of any half-matching's edges together, so the heaviest
// matching has the most pairs and among those the least cost.
Matches exact_matching(const std::vector<Candidate>& group, bool rematch_allowed, int max_rank) {
    const auto edges = allowed_edges(group, rematch_allowed, max_rank);
    if (edges.empty()) {
        return {};
    }
    Weight max_cost = 0;
    for (const auto& [cost, i, j] : edges) {
        max_cost = std::max(max_cost, cost);
    }
    const Weight big = 1 + static_cast<Weight>(group.size() / 2) * max_cost;
    MatchGraph graph(group.size());
    for (const auto& [cost, i, j] : edges) {
        boost::add_edge(i, j, big - cost, graph);
    }
    std::vector<Vertex> mate(group.size());
    boost::brute_force_maximum_weighted_matching(graph, &mate[0]);
    if (!valid_matching(mate, group, rematch_allowed)) {
        return greedy_matching(group, rematch_allowed, max_rank);
    }
    return matches_of(mate);
}

// The cheapest way to pair `pairs` pairs among the players `set` (at most 7), by trying them all;
// nothing if no such pairing is allowed.
std::optional<std::pair<std::int64_t, Matches>> best_among(const std::vector<std::size_t>& set,
                                                           std::size_t pairs,
                                                           const std::vector<Candidate>& group,
                                                           bool rematch_allowed, int max_rank) {
    std::optional<std::pair<std::int64_t, Matches>> best;
    Matches chosen;
    std::uint32_t used = 0;
    const auto search = [&](const auto& self, std::size_t from, std::int64_t cost) -> void {
        if (chosen.size() == pairs) {
            if (!best || cost < best->first) {
                best = std::make_pair(cost, chosen);
            }
            return;
        }
        for (std::size_t x = from; x < set.size(); ++x) {
            if (used & (1u << x)) {
                continue;
            }
            used |= 1u << x;
            for (std::size_t y = x + 1; y < set.size(); ++y) {
                if (!(used & (1u << y)) &&
                    may_pair(group[set[x]], group[set[y]], rematch_allowed)) {
                    used |= 1u << y;
                    chosen.emplace_back(set[x], set[y]);
                    self(self, x + 1, cost + pair_cost(group[set[x]], group[set[y]], max_rank));
                    chosen.pop_back();
                    used &= ~(1u << y);
                }
            }
            used &= ~(1u << x);
        }
    };
    search(search, 0, 0);
    return best;
}

// Lowers the cost of `matches` without losing a pair: the players of two pairs (with one player
// left out, or none) or of three pairs are paired again the cheapest way, while that is cheaper.
// Each step lowers the total, so it ends; what it ends on no such step improves.
void improve(Matches& matches, const std::vector<Candidate>& group, bool rematch_allowed,
             int max_rank) {
    const auto cost = [&](const std::pair<std::size_t, std::size_t>& m) {
        return pair_cost(group[m.first], group[m.second], max_rank);
    };
    std::vector<std::size_t> left_out;
    {
        std::vector<bool> matched(group.size(), false);
        for (const auto& [a, b] : matches) {
            matched[a] = matched[b] = true;
        }
        for (std::size_t v = 0; v < group.size(); ++v) {
            if (!matched[v]) {
                left_out.push_back(v);
            }
        }
    }
    // Re-pairs the players of matches[p], matches[q] (and matches[r]) and left_out[u] if cheaper.
    const auto try_set = [&](std::vector<std::size_t> which, std::optional<std::size_t> u) {
        std::vector<std::size_t> set;
        std::int64_t now = 0;
        for (const std::size_t m : which) {
            set.push_back(matches[m].first);
            set.push_back(matches[m].second);
            now += cost(matches[m]);
        }
        if (u) {
            set.push_back(left_out[*u]);
        }
        const auto best = best_among(set, which.size(), group, rematch_allowed, max_rank);
        if (!best || best->first >= now) {
            return false;
        }
        std::vector<bool> in_best(group.size(), false);
        for (std::size_t k = 0; k < which.size(); ++k) {
            matches[which[k]] = best->second[k];
            in_best[best->second[k].first] = in_best[best->second[k].second] = true;
        }
        if (u) {
            for (const std::size_t v : set) {
                if (!in_best[v]) {
                    left_out[*u] = v;
                }
            }
        }
        return true;
    };
    for (bool better = true; better;) {
        better = false;
        // Three pairs at a time only among pairs close in rank (the cost is about rank).
        std::sort(matches.begin(), matches.end(), [](const auto& x, const auto& y) {
            return std::min(x.first, x.second) < std::min(y.first, y.second);
        });
        for (std::size_t p = 0; p < matches.size(); ++p) {
            for (std::size_t q = p + 1; q < matches.size(); ++q) {
                better |= try_set({p, q}, std::nullopt);
                for (std::size_t u = 0; u < left_out.size(); ++u) {
                    better |= try_set({p, q}, u);
                }
                for (std::size_t r = q + 1; r < matches.size() && r < p + improve_window; ++r) {
                    better |= try_set({p, q, r}, std::nullopt);
                }
            }
            for (std::size_t u = 0; u < left_out.size(); ++u) {
                better |= try_set({p}, u);
            }
        }
    }
}

// A larger group: the most pairs the allowed pairs permit (Boost's
// edmonds_maximum_cardinality_matching), then made cheaper by `improve`.
Matches largest_then_cheaper(const std::vector<Candidate>& group, bool rematch_allowed,
                             int max_rank) {
    MatchGraph graph(group.size());
    for (const auto& [cost, i, j] : allowed_edges(group, rematch_allowed, max_rank)) {
        boost::add_edge(i, j, 0, graph);
    }
    std::vector<Vertex> mate(group.size());
    boost::edmonds_maximum_cardinality_matching(graph, &mate[0]);
    Matches matches = valid_matching(mate, group, rematch_allowed)
                          ? matches_of(mate)
                          : greedy_matching(group, rematch_allowed, max_rank);
    improve(matches, group, rematch_allowed, max_rank);
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
    Matches matches = group.size() <= exact_matching_limit
                          ? exact_matching(group, rematch_allowed, max_rank)
                          : largest_then_cheaper(group, rematch_allowed, max_rank);
    for (auto& [i, j] : matches) {
        if (j < i) {
            std::swap(i, j);
        }
    }
    std::sort(matches.begin(), matches.end());
    return matches;
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
