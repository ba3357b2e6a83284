#include "server/tournament/matching.h"

#include <algorithm>
#include <optional>
#include <tuple>

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

// `improve` re-pairs three pairs at a time among this many neighbours in index.
constexpr std::size_t improve_window = 8;

// The allowed pairs and their costs, asked once: cost −1 for a pair not allowed.
class CostTable {
public:
    CostTable(std::size_t players, const AllowedPair& allowed, const PairCost* cost)
        : players_(players), costs_(players * players, -1) {
        for (std::size_t i = 0; i < players; ++i) {
            for (std::size_t j = i + 1; j < players; ++j) {
                if (allowed(i, j)) {
                    const std::int64_t c = cost ? std::max<std::int64_t>((*cost)(i, j), 0) : 0;
                    costs_[i * players + j] = costs_[j * players + i] = c;
                }
            }
        }
    }
    std::size_t players() const { return players_; }
    bool allowed(std::size_t i, std::size_t j) const {
        return i != j && costs_[i * players_ + j] >= 0;
    }
    std::int64_t cost(std::size_t i, std::size_t j) const { return costs_[i * players_ + j]; }
    std::int64_t cost(const std::pair<std::size_t, std::size_t>& m) const {
        return cost(m.first, m.second);
    }
    // Every allowed pair with its cost.
    std::vector<std::tuple<std::int64_t, std::size_t, std::size_t>> edges() const {
        std::vector<std::tuple<std::int64_t, std::size_t, std::size_t>> list;
        for (std::size_t i = 0; i < players_; ++i) {
            for (std::size_t j = i + 1; j < players_; ++j) {
                if (allowed(i, j)) {
                    list.emplace_back(cost(i, j), i, j);
                }
            }
        }
        return list;
    }

private:
    std::size_t players_;
    std::vector<std::int64_t> costs_;
};

// Whether `mate` (from the matcher) is a matching of allowed pairs.
bool valid_matching(const std::vector<Vertex>& mate, const CostTable& table) {
    const Vertex none = boost::graph_traits<MatchGraph>::null_vertex();
    for (std::size_t v = 0; v < mate.size(); ++v) {
        if (mate[v] == none) {
            continue;
        }
        if (mate[v] >= mate.size() || mate[v] == v || mate[mate[v]] != v ||
            !table.allowed(v, mate[v])) {
            return false;
        }
    }
    return true;
}

// The cheapest allowed pair first, again and again: what a pass falls back on should a matcher
// hand back something that is not a matching of allowed pairs (never seen; checked anyway).
Matching greedy_matching(const CostTable& table) {
    auto edges = table.edges();
    std::sort(edges.begin(), edges.end());
    std::vector<bool> taken(table.players(), false);
    Matching matches;
    for (const auto& [cost, i, j] : edges) {
        if (!taken[i] && !taken[j]) {
            taken[i] = taken[j] = true;
            matches.emplace_back(i, j);
        }
    }
    return matches;
}

Matching matches_of(const std::vector<Vertex>& mate) {
    Matching matches;
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
Matching exact_matching(const CostTable& table) {
    const auto edges = table.edges();
    if (edges.empty()) {
        return {};
    }
    Weight max_cost = 0;
    for (const auto& [cost, i, j] : edges) {
        max_cost = std::max(max_cost, cost);
    }
    const Weight big = 1 + static_cast<Weight>(table.players() / 2) * max_cost;
    MatchGraph graph(table.players());
    for (const auto& [cost, i, j] : edges) {
        boost::add_edge(i, j, big - cost, graph);
    }
    std::vector<Vertex> mate(table.players());
    boost::brute_force_maximum_weighted_matching(graph, &mate[0]);
    if (!valid_matching(mate, table)) {
        return greedy_matching(table);
    }
    return matches_of(mate);
}

// The cheapest way to pair `pairs` pairs among the players `set` (at most 7), by trying them all;
// nothing if no such pairing is allowed.
std::optional<std::pair<std::int64_t, Matching>> best_among(const std::vector<std::size_t>& set,
                                                            std::size_t pairs,
                                                            const CostTable& table) {
    std::optional<std::pair<std::int64_t, Matching>> best;
    Matching chosen;
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
                if (!(used & (1u << y)) && table.allowed(set[x], set[y])) {
                    used |= 1u << y;
                    chosen.emplace_back(set[x], set[y]);
                    self(self, x + 1, cost + table.cost(set[x], set[y]));
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

// The players no pair of `matches` holds.
std::vector<std::size_t> unmatched(const Matching& matches, std::size_t players) {
    std::vector<bool> matched(players, false);
    for (const auto& [a, b] : matches) {
        matched[a] = matched[b] = true;
    }
    std::vector<std::size_t> left_out;
    for (std::size_t v = 0; v < players; ++v) {
        if (!matched[v]) {
            left_out.push_back(v);
        }
    }
    return left_out;
}

// Lowers the cost of `matches` without losing a pair: the players of two pairs (with one player
// left out, or none) or of three pairs are paired again the cheapest way, while that is cheaper.
// Each step lowers the total, so it ends; what it ends on no such step improves.
void improve(Matching& matches, const CostTable& table) {
    std::vector<std::size_t> left_out = unmatched(matches, table.players());
    // Re-pairs the players of matches[p], matches[q] (and matches[r]) and left_out[u] if cheaper.
    const auto try_set = [&](std::vector<std::size_t> which, std::optional<std::size_t> u) {
        std::vector<std::size_t> set;
        std::int64_t now = 0;
        for (const std::size_t m : which) {
            set.push_back(matches[m].first);
            set.push_back(matches[m].second);
            now += table.cost(matches[m]);
        }
        if (u) {
            set.push_back(left_out[*u]);
        }
        const auto best = best_among(set, which.size(), table);
        if (!best || best->first >= now) {
            return false;
        }
        std::vector<bool> in_best(table.players(), false);
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
        // Three pairs at a time only among pairs close in index (close in cost).
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

// The most pairs the allowed pairs permit (Boost's edmonds_maximum_cardinality_matching).
Matching largest(const CostTable& table) {
    MatchGraph graph(table.players());
    for (const auto& [cost, i, j] : table.edges()) {
        boost::add_edge(i, j, 0, graph);
    }
    std::vector<Vertex> mate(table.players());
    boost::edmonds_maximum_cardinality_matching(graph, &mate[0]);
    return valid_matching(mate, table) ? matches_of(mate) : greedy_matching(table);
}

void normalise(Matching& matches) {
    for (auto& [i, j] : matches) {
        if (j < i) {
            std::swap(i, j);
        }
    }
    std::sort(matches.begin(), matches.end());
}

}  // namespace

Matching cheapest_maximum_matching(std::size_t players, const AllowedPair& allowed,
                                   const PairCost& cost) {
    if (players < 2) {
        return {};
    }
    const CostTable table(players, allowed, &cost);
    Matching matches;
    if (players <= exact_matching_limit) {
        matches = exact_matching(table);
    } else {
        matches = largest(table);
        improve(matches, table);
    }
    normalise(matches);
    return matches;
}

std::size_t maximum_matching_size(std::size_t players, const AllowedPair& allowed) {
    if (players < 2) {
        return 0;
    }
    const CostTable table(players, allowed, nullptr);
    return largest(table).size();
}

}  // namespace server::tournament
