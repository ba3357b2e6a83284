// chessence-arena-bench [players…]: how long the arena machine's pairing pass takes (issue 43,
// docs/performance.md "Arena pairing"). For each count of players (default 100 250 1000) an arena
// is joined by that many players with ratings spread over 1000–2200, and then, round after round,
// every player waits at once: one pass pairs them (decide(PairingPass) — the whole of what the
// actor runs on its strand for a pass), the games start and end with random results, so sheets,
// ranks, sides and last opponents grow as in a real arena. Prints per count the pass's p50, p99
// and max in milliseconds over the rounds, and the pairs made per pass.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "server/tournament/arena.h"

namespace {

namespace st = server::tournament;
using Clock = std::chrono::steady_clock;

constexpr int rounds = 40;

// Applies `event` to `state`; a failure is the machine's bug: the bench stops.
void apply_or_die(st::ArenaState& state, const st::ArenaEvent& event) {
    if (auto applied = st::apply(state, event); !applied) {
        std::fprintf(stderr, "apply failed: %s\n", applied.error().c_str());
        std::exit(1);
    }
}

void run(int players) {
    std::mt19937 random(20261204u + static_cast<unsigned>(players));
    st::ArenaConfig config;
    config.starts_at = 1'000'000;
    config.duration_ms = 180 * 60'000;
    config.clock.kind = protocol::ClockKind::real_time;
    config.clock.initial_seconds = 180;
    config.clock.increment_seconds = 2;
    auto state = st::new_arena(config);
    std::vector<std::string> ids;
    std::uniform_int_distribution<int> rating(1000, 2200);
    for (int i = 0; i < players; ++i) {
        ids.push_back("p_" + std::to_string(i));
        apply_or_die(state, st::arena_event::Joined{ids.back(), rating(random)});
    }
    std::vector<double> passes_ms;
    std::size_t pairs = 0;
    st::ArenaTime now = config.starts_at + 60'000;  // past the rating-order start
    std::uniform_int_distribution<int> outcome(0, 9);
    for (int round = 0; round < rounds; ++round) {
        const auto started = Clock::now();
        auto decision = st::decide(state, st::arena_input::PairingPass{ids}, now);
        passes_ms.push_back(
            std::chrono::duration<double, std::milli>(Clock::now() - started).count());
        std::vector<int> games;
        for (const auto& event : decision.events) {
            apply_or_die(state, event);
            if (const auto* paired = std::get_if<st::arena_event::Paired>(&event)) {
                games.push_back(paired->game);
            }
        }
        pairs += games.size();
        for (int game : games) {
            apply_or_die(state, st::arena_event::GameStarted{game, "g_" + std::to_string(game)});
            const int o = outcome(random);
            std::optional<core::Side> winner;
            if (o < 5) {
                winner = core::Side::first;
            } else if (o < 9) {
                winner = core::Side::second;
            }
            apply_or_die(state, st::arena_event::GameFinished{game, winner, 40, false, false});
        }
        now += 60'000;
    }
    std::sort(passes_ms.begin(), passes_ms.end());
    const auto at = [&](double q) {
        return passes_ms[std::min(
            passes_ms.size() - 1,
            static_cast<std::size_t>(q * static_cast<double>(passes_ms.size())))];
    };
    std::printf(
        "players %d: pass p50 %.2f ms, p99 %.2f ms, max %.2f ms; %.1f pairs a pass (%d passes)\n",
        players, at(0.5), at(0.99), passes_ms.back(), static_cast<double>(pairs) / rounds, rounds);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> counts;
    for (int i = 1; i < argc; ++i) {
        counts.push_back(std::atoi(argv[i]));
    }
    if (counts.empty()) {
        counts = {100, 250, 1000};
    }
    for (int players : counts) {
        if (players < 2) {
            std::fprintf(stderr, "a count of players is at least 2\n");
            return 2;
        }
        run(players);
    }
    return 0;
}
