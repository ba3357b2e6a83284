// chessence puzzles [--games G1,G2,…] [--count N] [--seed S] [--nodes N] [--screen-nodes N]
//                   [--move-nodes N] [--levels A-B] [--skip-plies K] [--max-sources N]
//                   [--objects O1,O2,…] [--line-plies P] [--strict] [--threads T]
//                   [--records FILE] [--out FILE]
// chessence puzzles --check FILE [--sample N]
// Builds the puzzle bank (issue 25, docs/puzzles.md) offline: for each game, candidates from
// engine self-play or the finished games of a record file (Chessence, Chesica; --records, e.g.
// what the server's GET /api/players/<id>/games.pgn gives) or fresh deals (Sniderman), proved by
// the finder (core/puzzles/finder.h), without duplicates, until N puzzles a game; writes one JSON
// file and prints the count per game and the time. The same options give the same file on any
// number of threads. --check proves every puzzle of a bank again (or every N-th with --sample N)
// with the settings it was made with, and fails on any that is no longer one.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <set>
#include <sstream>
#include <thread>

#include "commands.h"
#include "options.h"
#include "protocol/puzzles.h"
#include "puzzle_sources.h"
#include "replay_record.h"

namespace cli {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr const char* puzzles_usage =
    "usage: chessence puzzles [--games chessence,chesica,sniderman] [--count <N>] [--seed <S>]\n"
    "       [--nodes <N>] [--screen-nodes <N>] [--move-nodes <N>] [--levels <A>-<B>]\n"
    "       [--skip-plies <K>] [--max-sources <N>] [--objects <1,2,...>] [--line-plies <P>]\n"
    "       [--strict] [--threads <T>] [--records <file>] [--out <file>]\n"
    "       chessence puzzles --check <file> [--sample <N>]\n";

std::optional<std::uint64_t> whole(const std::string& text) {
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

// A number option: its value, `fallback` when absent, nothing when it is not a number.
std::optional<std::uint64_t> number_option(const Args& args, const std::string& name,
                                           std::uint64_t fallback) {
    const auto text = option_value(args, name);
    return text ? whole(*text) : std::optional<std::uint64_t>(fallback);
}

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::istringstream in(text);
    for (std::string part; std::getline(in, part, separator);) {
        parts.push_back(part);
    }
    return parts;
}

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// The processor time of every thread of the process since `start` (core-seconds).
double cpu_seconds_since(std::clock_t start) {
    return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

struct Run {
    SourceSettings source;
    core::puzzles::FinderSettings finder;
    std::size_t count = 100;
    std::uint64_t max_sources = 0;
    unsigned threads = 1;
};

// The puzzles of one game; progress lines go to `err`. An error stops the run.
core::Expected<std::vector<core::puzzles::Puzzle>> build_game(const Run& run, std::ostream& out,
                                                              std::ostream& err) {
    const auto name = std::string(core::variant_name(run.source.game));
    const auto start = Clock::now();
    const std::clock_t cpu_start = std::clock();
    Collector collector(run.count, run.max_sources);
    std::mutex print;
    auto worker = [&] {
        SourceWorker source_worker(run.finder);
        while (const auto index = collector.take()) {
            auto result = source_worker.run(run.source, *index, collector.cancelled());
            const auto progress = collector.put(*index, std::move(result));
            const std::lock_guard lock(print);
            err << name << ": " << progress.puzzles << " puzzles from " << progress.sources
                << (run.source.game == core::VariantId::sniderman ? " deals" : " games") << " ("
                << progress.examined << " positions examined), " << std::fixed
                << std::setprecision(0) << seconds_since(start) << " s\n";
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < run.threads; ++t) {
        pool.emplace_back(worker);
    }
    worker();
    for (auto& t : pool) {
        t.join();
    }
    if (!collector.error().empty()) {
        return core::make_error(name + ": " + collector.error());
    }
    out << name << ": " << collector.puzzles().size() << " puzzles from "
        << collector.sources_used()
        << (run.source.game == core::VariantId::sniderman ? " deals" : " games") << ", "
        << collector.examined() << " positions examined, " << std::fixed << std::setprecision(1)
        << seconds_since(start) << " s (" << cpu_seconds_since(cpu_start)
        << " s of processor time)\n";
    const auto& rejected = collector.rejected();
    out << "  turned down: " << rejected[1] << " game over, " << rejected[2] << " forced, "
        << rejected[3] << " not winning, " << rejected[4] << " several winning, " << rejected[0]
        << " duplicates or beyond the count";
    if (run.source.game != core::VariantId::sniderman) {
        out << "; " << collector.proved() << " passed the screen";
    }
    out << "\n";
    return collector.puzzles();
}

// What the bank records of how it was made (what --check needs to prove it again).
json settings_json(const Run& run, const std::vector<core::VariantId>& games) {
    json win = json::object(), gap = json::object();
    for (const auto game : games) {
        if (game != core::VariantId::sniderman) {
            const auto key = std::string(core::variant_name(game));
            win[key] =
                run.finder.win_cp > 0 ? run.finder.win_cp : core::puzzles::default_win_cp(game);
            gap[key] =
                run.finder.gap_cp > 0 ? run.finder.gap_cp : core::puzzles::default_gap_cp(game);
        }
    }
    return {{"seed", run.source.seed},
            {"nodes", run.finder.nodes},
            {"screen_nodes", run.finder.screen_nodes},
            {"win_cp", win},
            {"gap_cp", gap},
            {"line_plies", run.finder.line_plies},
            {"move_nodes", run.source.move_nodes},
            {"levels",
             std::to_string(run.source.min_level) + "-" + std::to_string(run.source.max_level)},
            {"skip_plies", run.source.skip_plies},
            {"objects", run.source.objects}};
}

int check_bank(const Args& args, std::ostream& out, std::ostream& err);

// The first argument that is not one of the command's options or an option's value; empty when
// every one is known. A run writes over its --out file for half an hour, so a stray word (such as
// --help) must not start one.
std::optional<std::string> unknown_argument(const Args& args) {
    static const std::set<std::string> with_value = {
        "--games",  "--count",   "--seed",    "--nodes",      "--screen-nodes", "--move-nodes",
        "--levels", "--objects", "--threads", "--skip-plies", "--max-sources",  "--line-plies",
        "--out",    "--check",   "--sample",  "--records"};
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (with_value.contains(args[i]) && i + 1 < args.size()) {
            ++i;
        } else if (args[i] != "--strict") {
            return args[i];
        }
    }
    return std::nullopt;
}

}  // namespace

int run_puzzles(const Args& args, std::ostream& out, std::ostream& err) {
    if (has_flag(args, "--help") || has_flag(args, "-h")) {
        out << puzzles_usage;
        return 0;
    }
    if (const auto unknown = unknown_argument(args)) {
        err << "chessence puzzles: unknown argument " << *unknown << "\n" << puzzles_usage;
        return 2;
    }
    if (option_value(args, "--check")) {
        return check_bank(args, out, err);
    }
    Run run;
    const auto count = number_option(args, "--count", 100);
    const auto seed = number_option(args, "--seed", 1);
    const auto nodes = number_option(args, "--nodes", run.finder.nodes);
    const auto screen = number_option(args, "--screen-nodes", run.finder.screen_nodes);
    const auto move_nodes = number_option(args, "--move-nodes", run.source.move_nodes);
    const auto skip = number_option(args, "--skip-plies", 10);
    const auto max_sources = number_option(args, "--max-sources", 1'000'000);
    const auto line = number_option(args, "--line-plies", 5);
    const auto threads = number_option(args, "--threads", 1);
    const auto levels = split(option_value(args, "--levels").value_or("3-6"), '-');
    std::optional<std::uint64_t> low, high;
    if (levels.size() == 2) {
        low = whole(levels[0]);
        high = whole(levels[1]);
    }
    std::vector<core::VariantId> games;
    for (const auto& name :
         split(option_value(args, "--games").value_or("chessence,chesica,sniderman"), ',')) {
        if (const auto game = core::parse_variant(name)) {
            games.push_back(*game);
        } else {
            games.clear();
            break;
        }
    }
    std::vector<int> objects;
    for (const auto& text :
         split(option_value(args, "--objects").value_or("1,2,3,4,5,6,7,8,9,10"), ',')) {
        const auto n = whole(text);
        if (!n || *n < 1 || *n > 10) {
            objects.clear();
            break;
        }
        objects.push_back(static_cast<int>(*n));
    }
    if (!count || !seed || !nodes || *nodes == 0 || !screen || !move_nodes || *move_nodes == 0 ||
        !skip || !max_sources || !line || *line == 0 || *line > 99 || !threads || *threads == 0 ||
        *threads > 64 || !low || !high || *low < 1 || *high > 8 || *low > *high || games.empty() ||
        objects.empty()) {
        err << puzzles_usage;
        return 2;
    }
    run.count = *count;
    run.max_sources = *max_sources;
    run.threads = static_cast<unsigned>(*threads);
    run.finder.nodes = *nodes;
    run.finder.screen_nodes = *screen;
    run.finder.line_plies = static_cast<int>(*line);
    run.source.seed = *seed;
    run.source.move_nodes = *move_nodes;
    run.source.skip_plies = static_cast<int>(*skip);
    run.source.min_level = static_cast<int>(*low);
    run.source.max_level = static_cast<int>(*high);
    run.source.objects = objects;
    run.source.rules = has_flag(args, "--strict") ? core::RuleSet::strict : core::RuleSet::house;
    // The finished games to take Chessence and Chesica positions from, instead of self-play.
    std::vector<core::Record> records;
    const auto records_path = option_value(args, "--records");
    if (records_path) {
        auto read = read_record_file(*records_path);
        if (!read) {
            err << "chessence puzzles: " << read.error() << "\n";
            return 1;
        }
        records = std::move(*read);
    }
    const auto path = option_value(args, "--out").value_or("puzzles/bank.json");
    // Written beside the target and renamed at the end: a failed run leaves the old bank alone.
    const auto part = path + ".part";
    std::ofstream file(part, std::ios::binary);
    if (!file) {
        err << "cannot write " << part << "\n";
        return 1;
    }

    const auto start = Clock::now();
    const std::clock_t cpu_start = std::clock();
    protocol::PuzzleBank bank;
    bank.settings = settings_json(run, games);
    if (records_path) {
        bank.settings["records"] = std::filesystem::path(*records_path).filename().string();
    }
    const std::uint64_t max_sources_given = run.max_sources;
    for (const auto game : games) {
        run.source.game = game;
        run.source.records.reset();
        run.max_sources = max_sources_given;
        if (records_path && game != core::VariantId::sniderman) {
            auto of_game =
                std::make_shared<const std::vector<core::Record>>(records_of(records, game));
            run.max_sources = std::min<std::uint64_t>(run.max_sources, of_game->size());
            out << core::variant_name(game) << ": " << of_game->size() << " records in "
                << *records_path << "\n";
            run.source.records = std::move(of_game);
        }
        auto found = build_game(run, out, err);
        if (!found) {
            err << found.error() << "\n";
            file.close();
            std::filesystem::remove(part);
            return 1;
        }
        bank.puzzles.insert(bank.puzzles.end(), found->begin(), found->end());
    }
    const std::string text = protocol::puzzle_bank_text(bank);
    file << text;
    file.close();
    std::error_code renamed;
    if (!file) {
        err << "cannot write " << part << "\n";
        return 1;
    }
    std::filesystem::rename(part, path, renamed);
    if (renamed) {
        err << "cannot rename " << part << " to " << path << ": " << renamed.message() << "\n";
        return 1;
    }
    out << "bank: " << bank.puzzles.size() << " puzzles, " << text.size() << " bytes, "
        << std::fixed << std::setprecision(1) << seconds_since(start) << " s ("
        << cpu_seconds_since(cpu_start) << " s of processor time), written to " << path << "\n";
    return 0;
}

namespace {

int check_bank(const Args& args, std::ostream& out, std::ostream& err) {
    const auto path = *option_value(args, "--check");
    const auto sample = number_option(args, "--sample", 1);
    if (!sample || *sample == 0) {
        err << puzzles_usage;
        return 2;
    }
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    if (!file || !(text << file.rdbuf())) {
        err << "cannot read " << path << "\n";
        return 1;
    }
    const auto bank = protocol::parse_puzzle_bank(text.str());
    if (!bank) {
        err << path << ": " << bank.error() << "\n";
        return 1;
    }
    const auto& settings = bank->settings;
    core::puzzles::FinderSettings base;
    base.nodes = settings.value("nodes", base.nodes);
    base.screen_nodes = settings.value("screen_nodes", base.screen_nodes);
    base.line_plies = settings.value("line_plies", base.line_plies);
    const auto start = Clock::now();
    int checked = 0, failed = 0;
    std::map<core::VariantId, std::unique_ptr<core::puzzles::Finder>> finders;
    for (std::size_t i = 0; i < bank->puzzles.size(); i += *sample) {
        const auto& puzzle = bank->puzzles[i];
        const auto game = std::string(core::variant_name(puzzle.game));
        auto& finder = finders[puzzle.game];
        if (!finder) {
            auto finder_settings = base;
            finder_settings.win_cp = settings.value("win_cp", json::object()).value(game, 0);
            finder_settings.gap_cp = settings.value("gap_cp", json::object()).value(game, 0);
            finder = std::make_unique<core::puzzles::Finder>(finder_settings);
        }
        const auto verdict =
            finder->examine({puzzle.game, puzzle.rules, puzzle.fen, puzzle.object});
        ++checked;
        if (!verdict || !verdict->puzzle || verdict->puzzle->solution != puzzle.solution) {
            ++failed;
            err << "puzzle " << puzzle.id << " (" << game << " " << puzzle.fen
                << "): " << (!verdict ? verdict.error() : "not the same puzzle any more") << "\n";
        }
    }
    out << "checked " << checked << " of " << bank->puzzles.size() << " puzzles, " << failed
        << " failed, " << std::fixed << std::setprecision(1) << seconds_since(start) << " s\n";
    return failed == 0 ? 0 : 1;
}

}  // namespace

}  // namespace cli
