// A Sniderman bot's two choices besides its captures, from the exact solver. Under any object one
// side wins the round with best play, and the chooser may take that side, so naming gives nothing
// against a perfect opponent; the bot names the object whose winning line is narrowest — the side
// to move wins with a single first capture (else: the side to move loses) — so a chooser who does
// not see the solution easily takes the wrong side or misplays it. As chooser it takes the side
// that wins. Below level 8 it chooses at random now and then (core/engine/levels.h, the same
// chance as for its captures).
#include <algorithm>
#include <limits>

#include "core/engine/levels.h"
#include "core/sniderman/sniderman_game.h"
#include "core/sniderman/solver.h"
#include "server/bots/bot_think.h"

namespace server {

namespace {

// A small deterministic generator for the level's random choices (splitmix64).
std::uint64_t bot_mix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// True when `level` takes a random choice this time.
bool plays_at_random(int level, std::uint64_t& state) {
    return static_cast<int>(bot_mix(state) % 1000) < core::engine::sniderman_random_permille(level);
}

}  // namespace

BotAnswer name_sniderman_object(const BotJob& job, const std::atomic<bool>& stop) {
    BotAnswer answer;
    const auto* round = dynamic_cast<const core::sniderman::SnidermanGame*>(job.game.get());
    if (round == nullptr || job.objects.empty()) {
        answer.error = "no Sniderman round, or no object left to name";
        return answer;
    }
    std::uint64_t random = job.seed;
    if (plays_at_random(job.level, random)) {
        answer.object = job.objects[bot_mix(random) % job.objects.size()];
        return answer;
    }
    const auto deadline = std::chrono::steady_clock::now() + job.move_time;
    core::sniderman::Solver solver;
    int best = job.objects.front();
    int best_rank = std::numeric_limits<int>::max();  // 0: a single winning capture; 1: mover loses
    for (const int object : job.objects) {
        if (stop.load() || (best_rank < std::numeric_limits<int>::max() &&
                            std::chrono::steady_clock::now() >= deadline)) {
            break;  // what was solved so far decides
        }
        const auto solution = solver.solve(round->position(), round->history(),
                                           *core::sniderman::to_object(object), 2);
        const bool mover_wins = solution.odd_wins == round->position().odd_to_move();
        const int rank = mover_wins ? (solution.winning_moves.size() == 1 ? 0 : 2) : 1;
        if (rank < best_rank) {
            best = object;
            best_rank = rank;
        }
        if (rank == 0) {
            break;
        }
    }
    answer.object = best;
    return answer;
}

BotAnswer choose_sniderman_side(const BotJob& job) {
    BotAnswer answer;
    const auto* round = dynamic_cast<const core::sniderman::SnidermanGame*>(job.game.get());
    const auto object = round ? core::sniderman::to_object(round->object()) : std::nullopt;
    if (!object) {
        answer.error = "no Sniderman round with a named object";
        return answer;
    }
    std::uint64_t random = job.seed;
    if (plays_at_random(job.level, random)) {
        answer.odd = bot_mix(random) % 2 == 0;
        return answer;
    }
    core::sniderman::Solver solver;
    answer.odd = solver.odd_wins(round->position(), round->history(), *object);
    return answer;
}

}  // namespace server
