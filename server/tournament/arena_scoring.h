#pragma once
// An arena player's sheet — their finished games in the order they ended — and what it scores
// (docs/tournaments.md, "Scores"): win 2, draw 1, loss 0; after two wins in a row a player is on
// fire (a win 4, a draw 2, until a game is not won); a draw before ply 20 scores 0; the second and
// later draws of a draw streak score 0 unless the game was long; a berserk win of at least 14
// plies scores 1 more. Pure functions of values: no clock, no state.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/variant.h"

namespace server::tournament {

// A draw that ended before this ply scores 0 for both players.
inline constexpr int quick_draw_plies = 20;
// A berserk win scores its bonus point only from this many plies.
inline constexpr int berserk_bonus_plies = 14;
// A win is worth this much, a draw that scores at all half of it; on fire, twice as much.
inline constexpr int win_points = 2;
// Performance: the opponent's rating plus this for a win, minus it for a loss.
inline constexpr int performance_margin = 500;

enum class Outcome : std::uint8_t { win, draw, loss };

// One finished game as one of its players saw it.
struct SheetGame {
    Outcome outcome = Outcome::draw;
    int plies = 0;            // plies played in the game
    bool berserk = false;     // this player went berserk in it
    int opponent_rating = 0;  // the opponent's rating when the two were paired
    friend bool operator==(const SheetGame&, const SheetGame&) = default;
};

// Why a game scored what it did (the standings show it beside the points).
enum class ScoreFlag : std::uint8_t {
    normal,
    on_fire,      // won or drawn while on fire: double
    quick_draw,   // a draw before quick_draw_plies: 0
    draw_streak,  // a short draw after another draw with no win between: 0
};

struct GameScore {
    int points = 0;
    ScoreFlag flag = ScoreFlag::normal;
    bool berserk_bonus = false;  // the +1 of a berserk win is in `points`
};

struct SheetScore {
    std::vector<GameScore> games;  // one per game of the sheet, in its order
    int total = 0;
    bool on_fire = false;  // the last two games were won: the next one scores double
};

// The ply from which a draw is long in `variant`: a long draw scores even inside a draw streak.
// Nothing when no draw is ever long (Sniderman: its rules have no draw, only an agreed one).
std::optional<int> long_draw_plies(core::VariantId variant);

// What every game of `sheet` scores, and the total.
SheetScore score_sheet(const std::vector<SheetGame>& sheet, core::VariantId variant);

// The mean over `sheet` of the opponent's rating + 500 for a win, − 500 for a loss, + 0 for a
// draw, rounded to the nearest whole number (halves up); nothing for an empty sheet.
std::optional<int> performance(const std::vector<SheetGame>& sheet);

}  // namespace server::tournament
