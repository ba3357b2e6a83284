// chessence bench chesica: single-thread perft 5 from the start and random playouts to the end
// of the game (house rules), ending with the lines `perft_nps <n>` and `playouts_per_s <n>`.
#include <chrono>
#include <cstdint>
#include <ostream>
#include <vector>

#include "commands.h"
#include "core/chesica/legal.h"
#include "core/chesica/perft.h"
#include "core/chesica/position.h"

namespace cli {

namespace {

using Clock = std::chrono::steady_clock;
namespace chesica = core::chesica;

constexpr int perft_depth = 5;
constexpr std::uint64_t perft_expected = 18'545'767;
constexpr double playout_seconds = 1.0;
constexpr std::uint64_t playout_seed = 0x9E3779B97F4A7C15ULL;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// xorshift64*: a fast, seeded, reproducible generator.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        state_ ^= state_ >> 12;
        state_ ^= state_ << 25;
        state_ ^= state_ >> 27;
        return state_ * 0x2545F4914F6CDD1DULL;
    }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

private:
    std::uint64_t state_;
};

// Plays random legal moves from the start until the game ends; returns the plies played.
int playout(Rng& rng, std::vector<chesica::Position>& history) {
    history.clear();
    history.push_back(chesica::start_position());
    while (!chesica::drawn_by_house_rule(history.back(), core::RuleSet::house)) {
        chesica::MoveList list;
        chesica::generate_legal_moves(history, list);
        if (list.empty()) {
            break;  // no legal move (or no piece left): the side to move has lost
        }
        chesica::Position next = history.back();
        chesica::make_move(next, list[rng.below(list.size())]);
        history.push_back(next);
    }
    return static_cast<int>(history.size()) - 1;
}

}  // namespace

int bench_chesica(std::ostream& out) {
    const std::vector<chesica::Position> start{chesica::start_position()};
    auto begin = Clock::now();
    const std::uint64_t nodes = chesica::perft(start, perft_depth, core::RuleSet::house);
    const double perft_time = seconds_since(begin);
    out << "perft " << perft_depth << ": " << nodes << " nodes in " << perft_time << " s\n";
    if (nodes != perft_expected) {
        out << "perft mismatch: expected " << perft_expected << "\n";
        return 1;
    }

    Rng rng(playout_seed);
    std::vector<chesica::Position> history;
    history.reserve(4096);
    std::uint64_t playouts = 0;
    std::uint64_t plies = 0;
    begin = Clock::now();
    double elapsed = 0;
    while (elapsed < playout_seconds) {
        plies += static_cast<std::uint64_t>(playout(rng, history));
        ++playouts;
        elapsed = seconds_since(begin);
    }
    out << "playouts: " << playouts << " games, " << plies << " plies in " << elapsed << " s\n";
    out << "perft_nps " << static_cast<std::uint64_t>(static_cast<double>(nodes) / perft_time)
        << "\n";
    out << "playouts_per_s " << static_cast<std::uint64_t>(static_cast<double>(playouts) / elapsed)
        << "\n";
    return 0;
}

}  // namespace cli
