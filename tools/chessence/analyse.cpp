// chessence analyse <variant> [--nodes N] (--record FILE | --moves "m1 m2 …" [--fen F]
//                   [--object N] | --selfplay PLIES [--seed S] [--level L])
// The server's game analysis (core/engine/analysis.h, issue 25) on one thread: every position of
// a game at N nodes (the default budget unless given; Sniderman: solved exactly), one line per
// move (its evaluation from the first side's view, the engine's better move, the judgement), each
// side's accuracy, then what it cost: `analysis_plies`, `analysis_positions`, `analysis_nodes`,
// `analysis_seconds` (wall clock) and `analysis_cpu_seconds` (this process's processor time).
// --selfplay plays the game first: the engine at --level (default 4) against itself with a few
// thousand nodes a move, seeded, so the same command analyses the same game.
#include <charconv>
#include <chrono>
#include <ctime>
#include <iomanip>
#include <ostream>

#include "commands.h"
#include "core/engine/analysis.h"
#include "core/engine/engine.h"
#include "core/record.h"
#include "options.h"
#include "replay_record.h"

namespace cli {

namespace {

constexpr const char* analyse_usage =
    "usage: chessence analyse <variant> [--nodes <N>] (--record <file> | --moves \"<m1> ...\" "
    "[--fen <position>] [--object <1-10>] | --selfplay <plies> [--seed <S>] [--level <1-8>])\n";

// Nodes a self-play move gets: enough for a plausible game, little next to the analysis.
constexpr std::uint64_t selfplay_nodes = 5000;

std::optional<std::uint64_t> analyse_number(const std::string& text) {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

double cpu_seconds() {
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

std::string evaluation_text(const core::engine::Evaluation& eval) {
    using Kind = core::engine::Evaluation::Kind;
    switch (eval.kind) {
        case Kind::cp:
            return "cp " + std::to_string(eval.value);
        case Kind::mate:
            return "mate " + std::to_string(eval.value);
        case Kind::result:
            break;
    }
    return eval.value > 0 ? "result win" : eval.value < 0 ? "result loss" : "result draw";
}

// The game of the first record of `path`: its start position, object and moves.
core::Expected<std::vector<std::string>> record_moves(const std::string& path,
                                                      core::GameOptions& options) {
    auto records = read_record_file(path);
    if (!records) {
        return core::make_error(records.error());
    }
    if (records->empty()) {
        return core::make_error(path + ": no record");
    }
    const auto& record = records->front();
    if (const auto fen = record.tag("FEN")) {
        options.fen = *fen;
    }
    if (const auto rules = record.tag("RuleSet")) {
        options.rules = core::parse_rule_set(*rules).value_or(core::RuleSet::house);
    }
    if (const auto object = record.tag("Object")) {
        options.object = static_cast<int>(analyse_number(*object).value_or(0));
    }
    return record.moves;
}

// A seeded game of the engine against itself, `plies` long (shorter if it ends first).
core::Expected<std::vector<std::string>> selfplay_moves(core::VariantId variant, int plies,
                                                        int level, std::uint64_t seed,
                                                        const core::GameOptions& options) {
    auto game = core::make_game(variant, options);
    if (!game) {
        return core::make_error(game.error());
    }
    core::engine::SearchLimits limits;
    limits.max_nodes = selfplay_nodes;
    for (int ply = 0; ply < plies && !(*game)->outcome(); ++ply) {
        auto move =
            core::engine::choose_move(**game, level, limits, seed + static_cast<unsigned>(ply));
        if (!move) {
            return core::make_error(move.error());
        }
        if (auto played = (*game)->play(move->best_move); !played) {
            return core::make_error(played.error());
        }
    }
    return (*game)->moves();
}

}  // namespace

int run_analyse(const Args& args, std::ostream& out, std::ostream& err) {
    const auto rest = positionals(args, {"--nodes", "--record", "--moves", "--fen", "--object",
                                         "--selfplay", "--seed", "--level"});
    const auto variant = rest.size() == 1 ? core::parse_variant(rest[0]) : std::nullopt;
    if (!variant) {
        err << analyse_usage;
        return 2;
    }
    const auto nodes =
        analyse_number(option_value(args, "--nodes")
                           .value_or(std::to_string(core::engine::default_analysis_nodes)));
    const auto seed = analyse_number(option_value(args, "--seed").value_or("1"));
    const auto level = analyse_number(option_value(args, "--level").value_or("4"));
    if (!nodes || *nodes == 0 || !seed || !level || *level < 1 || *level > 8) {
        err << analyse_usage;
        return 2;
    }
    core::GameOptions options;
    if (const auto fen = option_value(args, "--fen")) {
        options.fen = *fen;
    }
    if (const auto object = option_value(args, "--object")) {
        options.object = static_cast<int>(analyse_number(*object).value_or(0));
    }
    core::Expected<std::vector<std::string>> moves = std::vector<std::string>{};
    if (const auto path = option_value(args, "--record")) {
        moves = record_moves(*path, options);
    } else if (const auto text = option_value(args, "--moves")) {
        moves = split_moves(*text);
    } else if (const auto plies = option_value(args, "--selfplay")) {
        const auto count = analyse_number(*plies);
        if (!count) {
            err << analyse_usage;
            return 2;
        }
        moves = selfplay_moves(*variant, static_cast<int>(*count), static_cast<int>(*level), *seed,
                               options);
    } else {
        err << analyse_usage;
        return 2;
    }
    if (!moves) {
        err << moves.error() << "\n";
        return 1;
    }
    const auto started = std::chrono::steady_clock::now();
    const double cpu_started = cpu_seconds();
    const auto analysis = core::engine::analyse_game(*variant, options, *moves, *nodes);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const double cpu = cpu_seconds() - cpu_started;
    if (!analysis) {
        err << analysis.error() << "\n";
        return 1;
    }
    std::uint64_t searched = 0;
    for (const auto& position : analysis->positions) {
        searched += position.nodes;
    }
    out << std::fixed << std::setprecision(1);
    for (const auto& move : analysis->moves) {
        const auto judgement = core::engine::judgement_name(move.judgement);
        out << move.ply << ". " << move.move << "  " << evaluation_text(move.eval) << "  win "
            << move.win << "  best " << move.best
            << (judgement.empty() ? "" : "  " + std::string(judgement)) << "\n";
    }
    for (const int side : {0, 1}) {
        const auto& accuracy = analysis->accuracy[static_cast<std::size_t>(side)];
        out << "accuracy_"
            << core::side_name(*variant, side == 0 ? core::Side::first : core::Side::second) << " ";
        if (accuracy) {
            out << *accuracy << "\n";
        } else {
            out << "-\n";
        }
    }
    out << "analysis_plies " << analysis->moves.size() << "\n";
    out << "analysis_positions " << analysis->positions.size() << "\n";
    out << "analysis_nodes " << searched << "\n";
    out << std::setprecision(2) << "analysis_seconds " << seconds << "\n";
    out << "analysis_cpu_seconds " << cpu << "\n";
    return 0;
}

}  // namespace cli
