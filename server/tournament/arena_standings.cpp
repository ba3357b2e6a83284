#include "server/tournament/arena_standings.h"

#include <algorithm>
#include <tuple>

namespace server::tournament {

std::vector<Standing> standings(const ArenaState& state) {
    struct Row {
        Standing standing;
        int joined = 0;
    };
    std::vector<Row> rows;
    rows.reserve(state.players.size());
    for (const auto& [id, player] : state.players) {
        const SheetScore score = score_sheet(player.sheet, state.config.variant);
        Standing s;
        s.id = id;
        s.points = score.total;
        s.performance = performance(player.sheet).value_or(player.rating);
        s.games = static_cast<int>(player.sheet.size());
        s.on_fire = score.on_fire;
        s.status = player.status;
        rows.push_back({std::move(s), player.joined});
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return std::tie(b.standing.points, b.standing.performance, a.joined) <
               std::tie(a.standing.points, a.standing.performance, b.joined);
    });
    std::vector<Standing> out;
    out.reserve(rows.size());
    for (auto& row : rows) {
        row.standing.rank = static_cast<int>(out.size()) + 1;
        out.push_back(std::move(row.standing));
    }
    return out;
}

std::map<std::string, int> ranks(const ArenaState& state) {
    std::map<std::string, int> by_id;
    for (const auto& s : standings(state)) {
        by_id[s.id] = s.rank;
    }
    return by_id;
}

}  // namespace server::tournament
