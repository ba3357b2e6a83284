// The search half of `chessence bench chessence|chesica`: level 8 searches five positions (the
// start and four reached by seeded random moves) to a fixed depth with a fresh engine each, on
// one thread, and prints `search_nps <n>` and `search_fixed_depth_ms <ms>` (the total time), and
// the same per second of this process's processor time (`search_nps_cpu`,
// `search_fixed_depth_cpu_ms`), which a loaded, shared machine distorts much less than the wall
// clock.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <ostream>

#include "commands.h"
#include "core/engine/engine.h"
#include "core/engine/plan.h"

namespace cli {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int position_count = 5;
constexpr int plies_between = 12;  // random plies from one benchmark position to the next
constexpr std::uint64_t bench_seed = 20260301;

int fixed_depth(core::VariantId variant) {
    return variant == core::VariantId::chesica ? 11 : 7;
}

}  // namespace

int bench_search(core::VariantId variant, std::ostream& out) {
    auto game = std::move(core::make_game(variant).value());
    core::engine::SeededRandom random(bench_seed);
    const int depth = fixed_depth(variant);
    std::uint64_t nodes = 0;
    double seconds = 0;
    const std::clock_t cpu_start = std::clock();
    for (int i = 0; i < position_count; ++i) {
        core::engine::Engine engine;
        core::engine::SearchLimits limits;
        limits.max_depth = depth;
        const auto start = Clock::now();
        const auto result = engine.choose(*game, core::engine::max_level, limits, 1);
        const double spent = std::chrono::duration<double>(Clock::now() - start).count();
        if (!result) {
            out << "search: " << result.error() << "\n";
            return 1;
        }
        out << "search " << game->fen() << ": depth " << result->depth << ", " << result->nodes
            << " nodes in " << spent << " s, best " << result->best_move << "\n";
        nodes += result->nodes;
        seconds += spent;
        for (int ply = 0; ply < plies_between && !game->outcome(); ++ply) {
            const auto legal = game->legal_moves();
            (void)game->play(legal[random.below(static_cast<std::uint32_t>(legal.size()))]);
        }
        if (game->outcome()) {
            break;
        }
    }
    const double cpu_seconds =
        static_cast<double>(std::clock() - cpu_start) / static_cast<double>(CLOCKS_PER_SEC);
    out << "search_depth " << depth << "\n";
    out << "search_nps " << static_cast<std::uint64_t>(static_cast<double>(nodes) / seconds)
        << "\n";
    out << "search_fixed_depth_ms " << static_cast<std::uint64_t>(seconds * 1000) << "\n";
    out << "search_nps_cpu "
        << static_cast<std::uint64_t>(static_cast<double>(nodes) / std::max(cpu_seconds, 1e-6))
        << "\n";
    out << "search_fixed_depth_cpu_ms " << static_cast<std::uint64_t>(cpu_seconds * 1000) << "\n";
    return 0;
}

}  // namespace cli
