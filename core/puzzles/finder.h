#pragma once
// The puzzle finder (issue 25): whether a position is a puzzle, that is, whether exactly one
// first move wins for the side to move, and the line that shows it. Deterministic: the same
// candidate and settings always give the same verdict (node-limited searches from a cleared
// table, the exact Sniderman solver). Docs: docs/puzzles.md.
//
// Chessence and Chesica (the engine at level 8, no noise): a quick screen at `screen_nodes`
// drops most positions, then two proof searches at `nodes` each — the whole position, and every
// move but its best (SearchLimits::search_moves). A puzzle when
//   best >= win_cp (or a forced win),
//   second < win_cp (no other move wins decisively), and
//   second <= best - gap_cp.
// Sniderman: the position (a deal, or any position with no captures before it) and its object go
// to the exact solver; a puzzle when exactly one capture of the side to move wins.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/engine/engine.h"
#include "core/expected.h"
#include "core/puzzles/puzzle.h"
#include "core/variant.h"

namespace core::sniderman {
class Solver;
}

namespace core::puzzles {

// The thresholds by game, in the engine's units. Chessence: 400 and 300 (a man is 257, so about
// one and a half men, and a man and a fifth). Chesica: 300 and 250 (a bishop is 100, a rook 120,
// a queen 150: two to three pieces, or a promotion and a piece).
int default_win_cp(VariantId game);
int default_gap_cp(VariantId game);

struct FinderSettings {
    std::uint64_t nodes = 2'000'000;      // each of the two proof searches
    std::uint64_t screen_nodes = 20'000;  // each of the two screening searches (0: no screen)
    int win_cp = 0;                       // 0: default_win_cp(game)
    int gap_cp = 0;                       // 0: default_gap_cp(game)
    int line_plies = 5;                   // the solution's length at most (made odd)
    std::size_t hash_megabytes = 16;      // the engine's table, cleared for each candidate
    int solver_bucket_bits = 19;          // the Sniderman solver's table (19: 32 MB)
};

// A position to examine: played from `fen` as a fresh game.
struct Candidate {
    VariantId game = VariantId::chessence;
    RuleSet rules = RuleSet::house;
    std::string fen;
    int object = 0;  // Sniderman: 1..10
};

// Why a candidate is not a puzzle.
enum class Rejection : std::uint8_t {
    none,             // it is one
    game_over,        // no move to make
    forced,           // a single legal move: nothing to find
    not_winning,      // no move wins decisively (Sniderman: the side to move loses)
    several_winning,  // another move wins too, or comes within the gap
};

struct Verdict {
    std::optional<Puzzle> puzzle;  // set when rejection is none
    Rejection rejection = Rejection::none;
    Proof proof;  // what the searches found, a puzzle or not (scores of the last search run)
};

class Finder {
public:
    explicit Finder(FinderSettings settings = {});
    ~Finder();
    Finder(const Finder&) = delete;
    Finder& operator=(const Finder&) = delete;

    // The verdict on `candidate`; an error when its position string or object is not valid.
    Expected<Verdict> examine(const Candidate& candidate);

    const FinderSettings& settings() const { return settings_; }

private:
    Expected<Verdict> examine_engine(const Candidate& candidate);
    Expected<Verdict> examine_sniderman(const Candidate& candidate);

    FinderSettings settings_;
    engine::Engine engine_;
    std::unique_ptr<sniderman::Solver> solver_;  // made on the first Sniderman candidate
};

}  // namespace core::puzzles
