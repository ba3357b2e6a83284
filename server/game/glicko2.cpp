#include "server/game/glicko2.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace server::glicko2 {

namespace {

double g(double phi) {
    return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected(double mu, double mu_j, double phi_j) {
    return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}

double capped_phi(double phi) {
    return std::min(phi, max_rd / scale);
}

// Step 5: the new volatility, by the Illinois variant of regula falsi on f(x) = 0, x = ln σ'².
double new_volatility(double sigma, double phi, double v, double delta, double tau) {
    const double a = std::log(sigma * sigma);
    const double phi2 = phi * phi;
    const auto f = [&](double x) {
        const double ex = std::exp(x);
        const double d = phi2 + v + ex;
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
    };
    double big_a = a;
    double big_b = 0.0;
    if (delta * delta > phi2 + v) {
        big_b = std::log(delta * delta - phi2 - v);
    } else {
        int k = 1;
        while (f(a - k * tau) < 0.0) {
            ++k;
        }
        big_b = a - k * tau;
    }
    double f_a = f(big_a);
    double f_b = f(big_b);
    // Each pass at least halves one side's weight; 200 passes is far beyond any real input.
    for (int pass = 0; pass < 200 && std::abs(big_b - big_a) > epsilon; ++pass) {
        const double big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        const double f_c = f(big_c);
        if (f_c * f_b <= 0.0) {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    return std::exp(big_a / 2.0);
}

}  // namespace

Rating update(const Rating& player, const std::vector<GameResult>& results, double tau) {
    // Step 2: the Glicko-2 scale.
    const double mu = (player.rating - default_rating) / scale;
    const double phi = player.rd / scale;
    const double sigma = player.volatility;
    if (results.empty()) {
        // Step 6 alone: a period without games.
        return {player.rating, capped_phi(std::sqrt(phi * phi + sigma * sigma)) * scale, sigma};
    }
    // Steps 3 and 4: the estimated variance v and the improvement Δ.
    double v_inverse = 0.0;
    double improvement = 0.0;
    for (const auto& result : results) {
        const double mu_j = (result.opponent.rating - default_rating) / scale;
        const double phi_j = result.opponent.rd / scale;
        const double e = expected(mu, mu_j, phi_j);
        const double gj = g(phi_j);
        v_inverse += gj * gj * e * (1.0 - e);
        improvement += gj * (result.score - e);
    }
    const double v = 1.0 / v_inverse;
    const double delta = v * improvement;
    // Steps 5 to 7.
    const double sigma_new = new_volatility(sigma, phi, v, delta, tau);
    const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
    const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    const double mu_new = mu + phi_new * phi_new * improvement;
    // Step 8: back to the Glicko scale.
    return {scale * mu_new + default_rating, scale * phi_new, sigma_new};
}

Rating after_inactivity(const Rating& player, double days) {
    if (days <= 0.0) {
        return player;
    }
    const double phi = player.rd / scale;
    const double periods = days * periods_per_day;
    const double grown = std::sqrt(phi * phi + periods * player.volatility * player.volatility);
    return {player.rating, std::max(player.rd, capped_phi(grown) * scale), player.volatility};
}

PairResult rate_game(const Rating& first, double first_idle_days, const Rating& second,
                     double second_idle_days, double first_score, double tau) {
    const Rating a = after_inactivity(first, first_idle_days);
    const Rating b = after_inactivity(second, second_idle_days);
    return {update(a, {{b, first_score}}, tau), update(b, {{a, 1.0 - first_score}}, tau)};
}

bool provisional(const Rating& rating) {
    return rating.rd > provisional_rd;
}

}  // namespace server::glicko2
