// chessence bench sniderman: single thread. perft from the reference position, solving all ten
// objects for fresh random deals, and puzzle generation. Ends with perft_nps, solve_ms_avg and
// puzzle_ms_avg lines.
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

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

constexpr int perft_depth = 6;
constexpr int solve_deals = 3;
constexpr int puzzle_seeds = 20;

}  // namespace

int bench_sniderman(std::ostream& out) {
    const sn::Position reference = *sn::parse_position(sn::reference_fen);
    auto start = Clock::now();
    const std::uint64_t nodes = sn::perft(reference, perft_depth);
    const double perft_ms = ms_since(start);
    out << "perft " << perft_depth << ": " << nodes << " in " << perft_ms << " ms\n";

    sn::Solver solver;
    double solve_total = 0;
    for (int i = 0; i < solve_deals; ++i) {
        const sn::Position deal = sn::deal(sn::derive_seed(2026, static_cast<std::uint64_t>(i)));
        start = Clock::now();
        const std::clock_t cpu_start = std::clock();
        const std::uint64_t before = solver.nodes();
        for (int n = 1; n <= sn::object_count; ++n) {
            solver.solve(deal, {}, *sn::to_object(n));
        }
        const double ms = ms_since(start);
        const double cpu_ms =
            1000.0 * static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
        solve_total += ms;
        out << "solve " << sn::format_position(deal) << ": " << ms << " ms (" << cpu_ms
            << " ms CPU), " << solver.nodes() - before << " positions\n";
    }

    double puzzle_total = 0;
    for (int seed = 0; seed < puzzle_seeds; ++seed) {
        start = Clock::now();
        sn::make_puzzle(static_cast<std::uint64_t>(seed), solver);
        puzzle_total += ms_since(start);
    }
    out << "perft_nps " << static_cast<std::uint64_t>(nodes / (perft_ms / 1000.0)) << "\n";
    out << "solve_ms_avg " << solve_total / solve_deals << "\n";
    out << "puzzle_ms_avg " << puzzle_total / puzzle_seeds << "\n";
    return 0;
}

}  // namespace cli
