// chessence bench chessence: single-thread perft 5 from the start and random playouts from the
// start (house rules, seeded), ending with the lines `perft_nps <n>` and `playouts_per_s <n>`.
#include <array>
#include <chrono>
#include <cstdint>
#include <ostream>

#include "commands.h"
#include "core/chessence/perft.h"
#include "core/chessence/playout.h"

namespace cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr int perft_depth = 5;
constexpr double playout_seconds = 2.0;
constexpr std::uint64_t playout_seed = 20260101;
constexpr int playout_max_plies = 100000;  // never reached under the house rules

}  // namespace

int bench_chessence(std::ostream& out) {
    using namespace core::chessence;
    const Position start = start_position();

    const auto perft_start = Clock::now();
    const std::uint64_t nodes = perft(start, perft_depth);
    const double perft_time = seconds_since(perft_start);
    out << "perft " << perft_depth << ": nodes " << nodes << " in " << perft_time << " s\n";

    Rng rng(playout_seed);
    std::uint64_t playouts = 0;
    std::uint64_t plies = 0;
    std::array<std::uint64_t, 5> endings{};
    const auto playout_start = Clock::now();
    double playout_time = 0;
    while (playout_time < playout_seconds) {
        for (int i = 0; i < 256; ++i) {
            const PlayoutResult result =
                random_playout(start, core::RuleSet::house, rng, playout_max_plies);
            ++playouts;
            plies += static_cast<std::uint64_t>(result.plies);
            ++endings[static_cast<int>(result.ending)];
        }
        playout_time = seconds_since(playout_start);
    }
    out << "playouts: " << playouts << " in " << playout_time << " s, "
        << static_cast<double>(plies) / static_cast<double>(playouts) << " plies on average\n";
    for (int e = 1; e < static_cast<int>(endings.size()); ++e) {
        out << "  " << ending_name(static_cast<Ending>(e)) << ": " << endings[e] << "\n";
    }
    out << "perft_nps " << static_cast<std::uint64_t>(static_cast<double>(nodes) / perft_time)
        << "\n";
    out << "playouts_per_s "
        << static_cast<std::uint64_t>(static_cast<double>(playouts) / playout_time) << "\n";
    return 0;
}

}  // namespace cli
