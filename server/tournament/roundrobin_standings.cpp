#include "server/tournament/roundrobin_standings.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace server::tournament {

namespace {

// What the game scored for `side`, in half points.
int rr_half_points(const RoundRobinGame& game, core::Side side) {
    if (!game.winner) {
        return 1;
    }
    return *game.winner == side ? 2 : 0;
}

}  // namespace

std::vector<RoundRobinStanding> roundrobin_standings(const RoundRobinState& state) {
    std::map<std::string, std::vector<TieBreakGame>> sheets;
    std::map<std::string, int> played;
    for (const auto& [id, player] : state.players) {
        sheets[id];
    }
    for (const auto& game : state.games) {
        if (game.state == RoundRobinGameState::finished) {
            sheets[game.first].push_back(
                TieBreakGame{game.second, rr_half_points(game, core::Side::first)});
            sheets[game.second].push_back(
                TieBreakGame{game.first, rr_half_points(game, core::Side::second)});
            ++played[game.first];
            ++played[game.second];
        } else if (game.state == RoundRobinGameState::forfeit) {
            // No opponent: the point counts, Sonneborn-Berger takes nothing from it.
            sheets[game.first].push_back(
                TieBreakGame{std::nullopt, rr_half_points(game, core::Side::first)});
            sheets[game.second].push_back(
                TieBreakGame{std::nullopt, rr_half_points(game, core::Side::second)});
        }
    }
    const auto breaks = tie_breaks(sheets);
    std::vector<RoundRobinStanding> lines;
    lines.reserve(state.players.size());
    for (const auto& [id, player] : state.players) {
        RoundRobinStanding line;
        line.id = id;
        line.number = player.number;
        line.rating = player.rating;
        line.bot = player.bot;
        line.withdrawn = player.withdrawn;
        line.played = played.count(id) ? played.at(id) : 0;
        line.score = breaks.at(id);
        lines.push_back(std::move(line));
    }
    // Before the start nobody has a number: the order of joining stands in for it.
    const auto order = [&](const RoundRobinStanding& line) {
        const RoundRobinPlayer& player = state.players.at(line.id);
        return player.number > 0 ? player.number : player.joined + 1;
    };
    std::sort(lines.begin(), lines.end(), [&](const auto& a, const auto& b) {
        return std::make_tuple(a.score.half_points, a.score.sonneborn_berger_quarters, a.rating,
                               -order(a)) > std::make_tuple(b.score.half_points,
                                                            b.score.sonneborn_berger_quarters,
                                                            b.rating, -order(b));
    });
    for (std::size_t i = 0; i < lines.size(); ++i) {
        lines[i].rank = static_cast<int>(i) + 1;
    }
    return lines;
}

}  // namespace server::tournament
