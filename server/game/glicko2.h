#pragma once
// Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), pure maths: no clock,
// no store. The server rates every rated game at once as a rating period of one game (as lichess
// does), after first letting each player's RD grow by the time since their last rated game.
#include <vector>

namespace server::glicko2 {

// Glickman's constants and this server's choices (docs/accounts.md).
inline constexpr double scale = 173.7178;  // rating points per Glicko-2 unit
inline constexpr double default_rating = 1500.0;
inline constexpr double default_rd = 350.0;
inline constexpr double default_volatility = 0.06;
inline constexpr double default_tau = 0.5;
// The largest RD: that of a player nobody knows anything about.
inline constexpr double max_rd = 350.0;
// A rating is provisional (shown with "?") while its RD is above this.
inline constexpr double provisional_rd = 110.0;
// Inactivity: rating periods per day of absence (lichess's constant). RD grows as
// φ² + σ²·periods: with σ 0.06, RD 50 becomes 68 after 90 days away and 105 after a year
// (docs/accounts.md has the table).
inline constexpr double periods_per_day = 0.21436;
// Convergence tolerance of the volatility iteration (step 5).
inline constexpr double epsilon = 0.000001;

struct Rating {
    double rating = default_rating;
    double rd = default_rd;
    double volatility = default_volatility;
};

struct GameResult {
    Rating opponent;
    double score = 0.5;  // 1 win, 0.5 draw, 0 loss
};

// The player's rating after one rating period with `results` (steps 1-8 of Glickman's example).
// Without results only the RD grows, by one period's volatility (step 6), up to max_rd.
Rating update(const Rating& player, const std::vector<GameResult>& results,
              double tau = default_tau);

// The rating after `days` without a rated game: φ² grows by σ² per rating period
// (periods_per_day per day), up to max_rd. Rating and volatility do not change.
Rating after_inactivity(const Rating& player, double days);

struct PairResult {
    Rating first;
    Rating second;
};

// One rated game as this server rates it: each player is first aged by their idle days, then both
// are updated at once from those values, as a rating period of one game. `first_score` is the
// first player's score (1, 0.5 or 0).
PairResult rate_game(const Rating& first, double first_idle_days, const Rating& second,
                     double second_idle_days, double first_score, double tau = default_tau);

// True while the rating is provisional (RD above provisional_rd).
bool provisional(const Rating& rating);

}  // namespace server::glicko2
