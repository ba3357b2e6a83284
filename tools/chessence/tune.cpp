// chessence tune <chessence|chesica> [--games N] [--nodes N] [--seed S] [--threads T]
//                [--random-plies R] [--weights FILE] [--steps K]
// Fits the evaluation weights to game outcomes (Texel's method): plays N self-play games at
// level 8 with N nodes a move (from the current weights, or those of --weights), keeps every
// quiet position an engine moved in (no capture, no check, no compulsory jump) with the game's
// result, then minimises the mean squared error between the result and a logistic function of
// the evaluation. The evaluation is linear in its features, so this is a small gradient descent.
// Prints the error before and after and the fitted weights (the weights-file format and the
// C++ table of core/engine/weights.cpp).
#include <charconv>
#include <cmath>
#include <iomanip>
#include <mutex>
#include <ostream>
#include <thread>
#include <vector>

#include "commands.h"
#include "core/chesica/fen.h"
#include "core/chessence/fen.h"
#include "core/engine/chesica_rules.h"
#include "core/engine/chessence_rules.h"
#include "options.h"
#include "selfplay.h"
#include "weights_file.h"

namespace cli {

namespace {

constexpr const char* tune_usage =
    "usage: chessence tune <chessence|chesica> [--games <N>] [--nodes <N>] [--seed <S>]\n"
    "       [--threads <T>] [--random-plies <R>] [--weights <file>] [--steps <K>]\n";

// One quiet position: White's feature minus Black's, the side to move (+1 White, -1 Black) for
// the tempo, and the result for White (1, 0.5, 0).
struct Sample {
    std::vector<double> difference;
    double mover = 1;
    double result = 0.5;
};

std::optional<std::uint64_t> number(const std::string& text) {
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

// The features of the position of `game` if it is quiet.
std::optional<Sample> quiet_sample(const core::Game& game) {
    Sample sample;
    sample.mover = game.to_move() == core::Side::first ? 1 : -1;
    if (game.variant() == core::VariantId::chessence) {
        const auto p = core::chessence::parse_position(game.fen()).value();
        core::chessence::MoveList captures;
        if (core::engine::ChessenceRules{}.tactical(p, captures) || !captures.empty()) {
            return std::nullopt;
        }
        const auto f = core::engine::chessence_features(p);
        for (std::size_t i = 0; i < f[0].size(); ++i) {
            sample.difference.push_back(f[0][i] - f[1][i]);
        }
    } else {
        const auto p = core::chesica::parse_fen(game.fen()).value();
        core::chesica::MoveList captures;
        if (core::engine::ChesicaRules{}.tactical(p, captures) || !captures.empty()) {
            return std::nullopt;
        }
        const auto f = core::engine::chesica_features(p);
        for (std::size_t i = 0; i < f[0].size(); ++i) {
            sample.difference.push_back(f[0][i] - f[1][i]);
        }
    }
    return sample;
}

// White's evaluation of a sample under weights w (features, then the tempo).
double evaluation(const Sample& s, const std::vector<double>& w) {
    double e = w.back() * s.mover;
    for (std::size_t i = 0; i < s.difference.size(); ++i) {
        e += w[i] * s.difference[i];
    }
    return e;
}

double predicted(double eval, double k) {
    return 1 / (1 + std::pow(10.0, -k * eval / 400));
}

double mean_error(const std::vector<Sample>& samples, const std::vector<double>& w, double k) {
    double total = 0;
    for (const auto& s : samples) {
        const double d = s.result - predicted(evaluation(s, w), k);
        total += d * d;
    }
    return total / static_cast<double>(samples.size());
}

// The scale K that best fits the starting weights (searched on a log grid, then refined).
double fit_scale(const std::vector<Sample>& samples, const std::vector<double>& w) {
    double best = 1, best_error = mean_error(samples, w, 1);
    for (double k = 0.05; k <= 5; k *= 1.1) {
        const double e = mean_error(samples, w, k);
        if (e < best_error) {
            best = k;
            best_error = e;
        }
    }
    return best;
}

// Gradient descent with Adam on the mean squared error; K stays fixed, so the weights keep the
// scale of centi-pawns.
std::vector<double> fit_weights(const std::vector<Sample>& samples, std::vector<double> w, double k,
                                int steps) {
    const double rate = 0.5, beta1 = 0.9, beta2 = 0.999;
    std::vector<double> m(w.size(), 0), v(w.size(), 0), grad(w.size());
    const double c = k * std::log(10.0) / 400;
    for (int step = 1; step <= steps; ++step) {
        std::fill(grad.begin(), grad.end(), 0);
        for (const auto& s : samples) {
            const double p = predicted(evaluation(s, w), k);
            const double g = -2 * (s.result - p) * p * (1 - p) * c;
            for (std::size_t i = 0; i < s.difference.size(); ++i) {
                grad[i] += g * s.difference[i];
            }
            grad.back() += g * s.mover;
        }
        for (std::size_t i = 0; i < w.size(); ++i) {
            grad[i] /= static_cast<double>(samples.size());
            m[i] = beta1 * m[i] + (1 - beta1) * grad[i];
            v[i] = beta2 * v[i] + (1 - beta2) * grad[i] * grad[i];
            const double m_hat = m[i] / (1 - std::pow(beta1, step));
            const double v_hat = v[i] / (1 - std::pow(beta2, step));
            w[i] -= rate * m_hat / (std::sqrt(v_hat) + 1e-9);
        }
    }
    return w;
}

template <class Weights>
std::vector<double> as_vector(const Weights& weights) {
    std::vector<double> w(weights.feature.begin(), weights.feature.end());
    w.push_back(weights.tempo);
    return w;
}

template <class Weights>
Weights from_vector(const std::vector<double>& w) {
    Weights weights;
    for (std::size_t i = 0; i < weights.feature.size(); ++i) {
        weights.feature[i] = static_cast<int>(std::lround(w[i]));
    }
    weights.tempo = static_cast<int>(std::lround(w.back()));
    return weights;
}

}  // namespace

int run_tune(const Args& args, std::ostream& out, std::ostream& err) {
    const auto pos = positionals(args, {"--games", "--nodes", "--seed", "--threads",
                                        "--random-plies", "--weights", "--steps"});
    const auto variant = core::parse_variant(pos.empty() ? "" : pos[0]);
    const auto games = number(option_value(args, "--games").value_or("200"));
    const auto nodes = number(option_value(args, "--nodes").value_or("5000"));
    const auto seed = number(option_value(args, "--seed").value_or("1"));
    const auto threads = number(option_value(args, "--threads").value_or("1"));
    const auto random_plies = number(option_value(args, "--random-plies").value_or("6"));
    const auto steps = number(option_value(args, "--steps").value_or("2000"));
    if (pos.size() != 1 || !variant || variant == core::VariantId::sniderman || !games ||
        *games == 0 || !nodes || *nodes == 0 || !seed || !threads || *threads == 0 ||
        *threads > 64 || !random_plies || !steps) {
        err << tune_usage;
        return 2;
    }
    const core::VariantId game_variant = variant.value_or(core::VariantId::chessence);
    AnyWeights start;
    if (const auto path = option_value(args, "--weights")) {
        auto read = read_weights(game_variant, *path);
        if (!read) {
            err << read.error() << "\n";
            return 1;
        }
        start = *read;
    }
    const std::vector<double> initial =
        game_variant == core::VariantId::chessence
            ? as_vector(start.chessence.value_or(core::engine::chessence_weights()))
            : as_vector(start.chesica.value_or(core::engine::chesica_weights()));

    SelfPlaySettings settings;
    settings.variant = game_variant;
    settings.limits.max_nodes = *nodes;
    settings.random_plies = static_cast<int>(*random_plies);
    std::vector<Sample> samples;
    std::mutex samples_mutex;
    std::atomic<std::uint64_t> next{0};
    int wins[3] = {0, 0, 0};  // White, draw, Black
    auto worker = [&] {
        EnginePlayer player(core::engine::max_level);
        if (start.chessence) {
            player.engine().set_weights(*start.chessence);
        }
        if (start.chesica) {
            player.engine().set_weights(*start.chesica);
        }
        for (std::uint64_t i = next++; i < *games; i = next++) {
            std::vector<Sample> found;
            const SelfPlaySettings s = settings;
            const auto game =
                play_game(s, {&player, &player}, game_seed(*seed, i), [&](const core::Game& g) {
                    if (auto sample = quiet_sample(g)) {
                        found.push_back(std::move(*sample));
                    }
                });
            const double result = !game.winner                        ? 0.5
                                  : *game.winner == core::Side::first ? 1.0
                                                                      : 0.0;
            const std::lock_guard lock(samples_mutex);
            ++wins[result == 1.0 ? 0 : result == 0.5 ? 1 : 2];
            for (auto& sample : found) {
                sample.result = result;
                samples.push_back(std::move(sample));
            }
        }
    };
    std::vector<std::thread> pool;
    for (std::uint64_t t = 1; t < *threads; ++t) {
        pool.emplace_back(worker);
    }
    worker();
    for (auto& t : pool) {
        t.join();
    }
    if (samples.empty()) {
        err << "no quiet positions: play more games\n";
        return 1;
    }
    const double k = fit_scale(samples, initial);
    const auto fitted = fit_weights(samples, initial, k, static_cast<int>(*steps));
    out << "games " << *games << " (white " << wins[0] << ", draws " << wins[1] << ", black "
        << wins[2] << "), quiet positions " << samples.size() << "\n";
    out << std::setprecision(6) << "scale_k " << k << "\n";
    out << "error_before " << mean_error(samples, initial, k) << "\n";
    out << "error_after " << mean_error(samples, fitted, k) << "\n";
    for (std::size_t i = 0; i + 1 < fitted.size(); ++i) {
        out << "  "
            << (game_variant == core::VariantId::chessence
                    ? core::engine::chessence_feature_name(static_cast<int>(i))
                    : core::engine::chesica_feature_name(static_cast<int>(i)))
            << " " << initial[i] << " -> " << std::lround(fitted[i]) << "\n";
    }
    out << "  tempo " << initial.back() << " -> " << std::lround(fitted.back()) << "\n";
    out << "weights "
        << (game_variant == core::VariantId::chessence
                ? format_weights(from_vector<core::engine::ChessenceWeights>(fitted))
                : format_weights(from_vector<core::engine::ChesicaWeights>(fitted)))
        << "\n";
    return 0;
}

}  // namespace cli
