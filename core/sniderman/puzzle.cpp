#include "core/sniderman/puzzle.h"

#include "core/sniderman/deal.h"

namespace core::sniderman {

namespace {

constexpr int min_captures = 5;
constexpr int extra_captures = 3;  // 5, 6 or 7 captures before the puzzle position

// A candidate from rng, or false when the random round ended before the puzzle position.
bool make_candidate(Rng& rng, Puzzle& puzzle) {
    puzzle = Puzzle{};
    puzzle.start = deal(rng);
    puzzle.position = puzzle.start;
    const int captures = min_captures + static_cast<int>(rng.below(extra_captures));
    for (int i = 0; i < captures; ++i) {
        const MoveList moves = generate_captures(puzzle.position);
        if (moves.size == 0) {
            return false;
        }
        const Move m = moves[static_cast<int>(rng.below(static_cast<std::uint64_t>(moves.size)))];
        puzzle.history.record(m, puzzle.position.at(m.to), puzzle.position.ply);
        puzzle.position = make_move(puzzle.position, m);
        puzzle.moves.push_back(m);
    }
    puzzle.object = static_cast<Object>(1 + rng.below(object_count));
    return has_capture(puzzle.position);
}

}  // namespace

Puzzle make_puzzle(std::uint64_t seed, Solver& solver) {
    Rng rng(derive_seed(seed, 0x9E22));
    Puzzle puzzle;
    for (;;) {
        if (!make_candidate(rng, puzzle)) {
            continue;
        }
        const Solution solution = solver.solve(puzzle.position, puzzle.history, puzzle.object, 2);
        if (solution.winning_moves.size() == 1) {
            puzzle.answer = solution.winning_moves.front();
            return puzzle;
        }
    }
}

Puzzle make_puzzle(std::uint64_t seed) {
    Solver solver(15);
    return make_puzzle(seed, solver);
}

}  // namespace core::sniderman
