#pragma once
// The tie-breaks of the tournaments played in rounds (docs/tournaments.md, "Swiss" and "Round
// robin"): a player's points, then Sonneborn-Berger, then Buchholz. Pure, over the players'
// sheets; units are kept whole (half points, quarter points) so that ties compare exactly.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace server::tournament {

// One round of a player's sheet: the game played against `opponent` and what it scored
// (0, 1 or 2 half points); no opponent for a round not played (a bye scores 2, an absence 0).
struct TieBreakGame {
    std::optional<std::string> opponent;
    int half_points = 0;
};

struct TieBreaks {
    int half_points = 0;  // the score: 1 point a win, ½ a draw, and a bye's point
    // Σ over the games played: the opponent's score × what the game scored, in quarter points
    // (a win over a player of 3 points adds 12, a draw 6). Byes and absences add nothing.
    int sonneborn_berger_quarters = 0;
    // Σ of the scores of the opponents played, in half points.
    int buchholz_half_points = 0;
    friend bool operator==(const TieBreaks&, const TieBreaks&) = default;
};

// Every player's tie-breaks from every player's sheet (an opponent not among `sheets` counts 0).
std::map<std::string, TieBreaks> tie_breaks(
    const std::map<std::string, std::vector<TieBreakGame>>& sheets);

// Whether `a` stands above `b`: more points, then more Sonneborn-Berger, then more Buchholz.
// Equal on all three: neither (the caller's own last key decides, e.g. the rating).
bool ranks_above(const TieBreaks& a, const TieBreaks& b);

}  // namespace server::tournament
