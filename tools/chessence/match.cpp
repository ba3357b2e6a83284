// chessence match --variant V --levels A B --games N (--movetime MS | --nodes N) [--seed S]
//                 [--strict] [--threads T] [--random-plies R] [--weights-a F] [--weights-b F]
//                 [--uci-a PROGRAM] [--uci-b PROGRAM] [--verbose]
// Plays N games of level A against level B (or two weight sets, or this build against another
// program that speaks UCI, such as an older build) and prints the result for A as
// `W / D / L: w / d / l`, the score and the Elo difference it suggests. Games go in pairs: the
// same opening (a few random moves, or a Sniderman deal and object) with each side once first.
#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <mutex>
#include <ostream>
#include <thread>
#include <vector>

#include "commands.h"
#include "options.h"
#include "selfplay.h"
#include "weights_file.h"

namespace cli {

namespace {

constexpr const char* match_usage =
    "usage: chessence match --variant <chessence|chesica|sniderman> --levels <A> <B> --games <N>\n"
    "       (--movetime <ms> | --nodes <N>) [--seed <S>] [--strict] [--threads <T>]\n"
    "       [--random-plies <R>] [--weights-a <file>] [--weights-b <file>]\n"
    "       [--uci-a <program>] [--uci-b <program>] [--verbose]\n";

std::optional<std::uint64_t> number(const std::optional<std::string>& text) {
    if (!text) {
        return std::nullopt;
    }
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (ec != std::errc() || ptr != text->data() + text->size()) {
        return std::nullopt;
    }
    return value;
}

struct GameLine {
    bool a_first = true;
    SelfPlayGame game;
};

// Outcome for A: 1 win, 0 draw, -1 loss.
int for_a(const GameLine& line) {
    if (!line.game.winner) {
        return 0;
    }
    const bool first_won = *line.game.winner == core::Side::first;
    return first_won == line.a_first ? 1 : -1;
}

void apply_weights(core::engine::Engine& engine, const AnyWeights& w) {
    if (w.chessence) {
        engine.set_weights(*w.chessence);
    }
    if (w.chesica) {
        engine.set_weights(*w.chesica);
    }
}

}  // namespace

int run_match(const Args& args, std::ostream& out, std::ostream& err) {
    const auto variant = core::parse_variant(option_value(args, "--variant").value_or(""));
    const auto levels_at =
        static_cast<std::size_t>(std::find(args.begin(), args.end(), "--levels") - args.begin());
    std::optional<std::uint64_t> level_a, level_b;
    if (levels_at + 2 < args.size()) {
        level_a = number(args[levels_at + 1]);
        level_b = number(args[levels_at + 2]);
    }
    const auto games = number(option_value(args, "--games"));
    const auto movetime = number(option_value(args, "--movetime"));
    const auto nodes = number(option_value(args, "--nodes"));
    const auto seed = number(option_value(args, "--seed").value_or("1"));
    const auto threads = number(option_value(args, "--threads").value_or("1"));
    const auto random_plies = number(option_value(args, "--random-plies").value_or("2"));
    const bool levels_ok =
        level_a && level_b && *level_a >= 1 && *level_a <= 8 && *level_b >= 1 && *level_b <= 8;
    if (!variant || !levels_ok || !games || *games == 0 || (!movetime && !nodes) || !seed ||
        !threads || *threads == 0 || *threads > 64 || !random_plies) {
        err << match_usage;
        return 2;
    }
    std::array<AnyWeights, 2> weights;
    for (int side = 0; side < 2; ++side) {
        if (const auto path = option_value(args, side == 0 ? "--weights-a" : "--weights-b")) {
            auto read = read_weights(*variant, *path);
            if (!read) {
                err << read.error() << "\n";
                return 1;
            }
            weights[static_cast<std::size_t>(side)] = *read;
        }
    }
    SelfPlaySettings settings;
    settings.variant = *variant;
    settings.rules = has_flag(args, "--strict") ? core::RuleSet::strict : core::RuleSet::house;
    settings.limits.move_time = std::chrono::milliseconds(movetime.value_or(0));
    settings.limits.max_nodes = nodes.value_or(0);
    settings.random_plies = static_cast<int>(*random_plies);

    std::vector<GameLine> lines(*games);
    std::atomic<std::size_t> next{0};
    const std::array<std::optional<std::string>, 2> programs = {option_value(args, "--uci-a"),
                                                                option_value(args, "--uci-b")};
    const std::array<int, 2> levels = {static_cast<int>(*level_a), static_cast<int>(*level_b)};
    auto worker = [&] {
        std::array<std::unique_ptr<Player>, 2> players;
        for (std::size_t side = 0; side < 2; ++side) {
            if (programs[side]) {
                players[side] = std::make_unique<UciPlayer>(*programs[side], levels[side]);
            } else {
                auto engine = std::make_unique<EnginePlayer>(levels[side]);
                apply_weights(engine->engine(), weights[side]);
                players[side] = std::move(engine);
            }
        }
        Player* a = players[0].get();
        Player* b = players[1].get();
        for (std::size_t i = next++; i < lines.size(); i = next++) {
            const bool a_first = i % 2 == 0;
            lines[i].a_first = a_first;
            lines[i].game = play_game(settings, a_first ? std::array{a, b} : std::array{b, a},
                                      game_seed(*seed, i / 2));
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

    int wins = 0, draws = 0, losses = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const int r = for_a(lines[i]);
        wins += r > 0;
        draws += r == 0;
        losses += r < 0;
        if (lines[i].game.reason == "player_error") {
            err << "game " << i + 1 << ": a player failed after " << lines[i].game.moves.size()
                << " plies: " << lines[i].game.error << "\n";
            return 1;
        }
        if (has_flag(args, "--verbose")) {
            out << "game " << i + 1 << ": A " << (lines[i].a_first ? "first " : "second") << "  "
                << (r > 0   ? "A wins"
                    : r < 0 ? "B wins"
                            : "draw  ")
                << "  " << lines[i].game.reason << ", " << lines[i].game.moves.size() << " plies\n";
        }
    }
    const double score = (wins + 0.5 * draws) / static_cast<double>(lines.size());
    const double clamped = std::clamp(score, 0.5 / lines.size(), 1 - 0.5 / lines.size());
    out << "match " << core::variant_name(*variant) << ": A level " << *level_a << " vs B level "
        << *level_b << ", " << lines.size() << " games, "
        << (movetime ? std::to_string(*movetime) + " ms" : std::to_string(*nodes) + " nodes")
        << " a move\n";
    out << "W / D / L: " << wins << " / " << draws << " / " << losses << "\n";
    out << std::fixed << std::setprecision(3) << "score " << score << "\n";
    out << std::setprecision(0) << "elo_diff " << -400 * std::log10(1 / clamped - 1) << "\n";
    return 0;
}

}  // namespace cli
