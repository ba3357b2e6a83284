#include "server/tournament/swiss_standings.h"

#include <algorithm>

namespace server::tournament {

std::map<std::string, std::vector<TieBreakGame>> swiss_sheets(const SwissState& state) {
    std::map<std::string, std::vector<TieBreakGame>> sheets;
    for (const auto& [id, player] : state.players) {
        auto& sheet = sheets[id];
        for (const SwissRound& round : player.rounds) {
            if (round.game) {
                continue;  // in progress
            }
            TieBreakGame game;
            game.half_points = round.half_points;
            if (round.kind == SwissRoundKind::played) {
                game.opponent = round.opponent;
            }
            sheet.push_back(std::move(game));
        }
    }
    return sheets;
}

std::vector<SwissStanding> swiss_standings(const SwissState& state) {
    const auto breaks = tie_breaks(swiss_sheets(state));
    std::vector<SwissStanding> table;
    table.reserve(state.players.size());
    for (const auto& [id, player] : state.players) {
        SwissStanding row;
        row.id = id;
        row.tie_breaks = breaks.at(id);
        row.rating = player.rating;
        row.bot = player.bot;
        row.status = player.status;
        table.push_back(std::move(row));
    }
    std::sort(table.begin(), table.end(), [&](const SwissStanding& a, const SwissStanding& b) {
        if (ranks_above(a.tie_breaks, b.tie_breaks)) {
            return true;
        }
        if (ranks_above(b.tie_breaks, a.tie_breaks)) {
            return false;
        }
        if (a.rating != b.rating) {
            return a.rating > b.rating;
        }
        return state.players.at(a.id).joined < state.players.at(b.id).joined;
    });
    for (std::size_t k = 0; k < table.size(); ++k) {
        table[k].rank = static_cast<int>(k) + 1;
    }
    return table;
}

}  // namespace server::tournament
