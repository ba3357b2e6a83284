// chessence bench sniderman: single thread. perft from the reference position, solving all ten
// objects for fresh random deals, and puzzle generation. Ends with perft_nps, solve_ms_avg and
// puzzle_ms_avg lines. Times are the process's CPU time (std::clock), so that other work on a
// shared machine does not inflate them; wall-clock times are printed alongside.
#include <chrono>
#include <ctime>
#include <ostream>

#include "commands.h"
#include "core/sniderman/deal.h"
#include "core/sniderman/puzzle.h"
#include "core/sniderman/solver.h"

namespace cli {

namespace {

namespace sn = core::sniderman;
using Clock = std::chrono::steady_clock;

// CPU and wall-clock milliseconds since construction.
class Stopwatch {
public:
    double cpu_ms() const {
        return 1000.0 * static_cast<double>(std::clock() - cpu_start_) / CLOCKS_PER_SEC;
    }
    double wall_ms() const {
        return std::chrono::duration<double, std::milli>(Clock::now() - wall_start_).count();
    }

private:
    std::clock_t cpu_start_ = std::clock();
    Clock::time_point wall_start_ = Clock::now();
};

constexpr int perft_depth = 6;
constexpr int solve_deals = 3;
constexpr int puzzle_seeds = 20;

}  // namespace

int bench_sniderman(std::ostream& out) {
    const sn::Position reference = *sn::parse_position(sn::reference_fen);
    const Stopwatch perft_watch;
    const std::uint64_t nodes = sn::perft(reference, perft_depth);
    const double perft_ms = perft_watch.cpu_ms();
    out << "perft " << perft_depth << ": " << nodes << " in " << perft_ms << " ms CPU ("
        << perft_watch.wall_ms() << " ms wall)\n";

    sn::Solver solver;
    double solve_total = 0;
    for (int i = 0; i < solve_deals; ++i) {
        const sn::Position deal = sn::deal(sn::derive_seed(2026, static_cast<std::uint64_t>(i)));
        const Stopwatch watch;
        const std::uint64_t before = solver.nodes();
        for (int n = 1; n <= sn::object_count; ++n) {
            solver.solve(deal, {}, *sn::to_object(n));
        }
        solve_total += watch.cpu_ms();
        out << "solve " << sn::format_position(deal) << ": " << watch.cpu_ms() << " ms CPU ("
            << watch.wall_ms() << " ms wall), " << solver.nodes() - before << " positions\n";
    }

    const Stopwatch puzzle_watch;
    for (int seed = 0; seed < puzzle_seeds; ++seed) {
        sn::make_puzzle(static_cast<std::uint64_t>(seed), solver);
    }
    const double puzzle_total = puzzle_watch.cpu_ms();
    out << "puzzles: " << puzzle_seeds << " in " << puzzle_total << " ms CPU ("
        << puzzle_watch.wall_ms() << " ms wall)\n";
    out << "perft_nps " << static_cast<std::uint64_t>(nodes / (perft_ms / 1000.0)) << "\n";
    out << "solve_ms_avg " << solve_total / solve_deals << "\n";
    out << "puzzle_ms_avg " << puzzle_total / puzzle_seeds << "\n";
    return 0;
}

}  // namespace cli
