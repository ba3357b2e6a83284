#include "server/tournament/tie_breaks.h"

#include <tuple>

namespace server::tournament {

std::map<std::string, TieBreaks> tie_breaks(
    const std::map<std::string, std::vector<TieBreakGame>>& sheets) {
    std::map<std::string, TieBreaks> out;
    for (const auto& [player, games] : sheets) {
        auto& mine = out[player];
        for (const auto& game : games) {
            mine.half_points += game.half_points;
        }
    }
    for (const auto& [player, games] : sheets) {
        auto& mine = out[player];
        for (const auto& game : games) {
            if (!game.opponent) {
                continue;
            }
            const auto it = out.find(*game.opponent);
            const int theirs = it == out.end() ? 0 : it->second.half_points;
            mine.buchholz_half_points += theirs;
            mine.sonneborn_berger_quarters += theirs * game.half_points;
        }
    }
    return out;
}

bool ranks_above(const TieBreaks& a, const TieBreaks& b) {
    return std::tie(a.half_points, a.sonneborn_berger_quarters, a.buchholz_half_points) >
           std::tie(b.half_points, b.sonneborn_berger_quarters, b.buchholz_half_points);
}

}  // namespace server::tournament
