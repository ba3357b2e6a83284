#pragma once
// The computer player's one entry point, the same for every variant: choose a move for the side to
// move at a level (1 beginner … 8 full strength) within limits. Pure computation: no I/O, no
// threads of its own; interruptible through `stop`; deterministic for a given seed and node limit.
// How it searches and how strong each level is: docs/engine.md.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/chesica_eval.h"
#include "core/engine/chessence_eval.h"
#include "core/expected.h"
#include "core/game.h"

namespace core::engine {

inline constexpr int min_level = 1;
inline constexpr int max_level = 8;

struct SearchResult;

struct SearchLimits {
    // Time to think; zero: no time limit (then a node or depth limit should be set; with no limit
    // at all and no stop flag, default_move_time applies).
    std::chrono::milliseconds move_time{0};
    std::uint64_t max_nodes = 0;  // 0: no limit
    int max_depth = 0;            // 0: no limit
    // Only these root moves are searched (as UCI's `go searchmoves`; the puzzle finder's "every
    // move but the best"); empty: every legal move. Moves not legal here are ignored; when none
    // is left, choose_move answers an error. Chessence and Chesica (Sniderman ignores it).
    std::vector<std::string> search_moves;
    // Set from another thread to stop at once; the best move found so far is returned.
    const std::atomic<bool>* stop = nullptr;
    // Called on the searching thread after each completed iteration (for UCI `info` lines).
    std::function<void(const SearchResult&)> on_iteration;
};

inline constexpr std::chrono::milliseconds default_move_time{1000};

struct SearchResult {
    std::string best_move;  // canonical notation
    int depth = 0;          // the last completed iteration
    std::uint64_t nodes = 0;
    // From the mover's point of view, in evaluation units (a Chessence man 257, a Chesica bishop
    // 100).
    int score_cp = 0;
    std::optional<int> mate_in;   // moves to mate (negative: being mated), when known
    std::vector<std::string> pv;  // principal variation, best_move first
    std::chrono::microseconds elapsed{0};
};

// A move for the side to move of `game` at `level`; an error if the game is over, the level is
// outside 1..8, or (Sniderman) the round has no object yet. A fresh engine each call: the same
// game, level, node limit and seed always give the same move.
Expected<SearchResult> choose_move(const Game& game, int level, const SearchLimits& limits,
                                   std::uint64_t seed);

class TranspositionTable;

// An engine that keeps its transposition table from one move to the next (UCI, matches).
class Engine {
public:
    explicit Engine(std::size_t hash_megabytes = 16);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // As choose_move, with this engine's table (results then depend on earlier searches).
    Expected<SearchResult> choose(const Game& game, int level, const SearchLimits& limits,
                                  std::uint64_t seed);
    // Forgets what earlier searches learned (a new game).
    void new_game();
    // A new table of about `megabytes` MB (empty).
    void set_hash(std::size_t megabytes);
    // Evaluation weights other than the engine's own (the tuning and match tools compare them).
    void set_weights(const ChessenceWeights& weights) { chessence_weights_ = weights; }
    void set_weights(const ChesicaWeights& weights) { chesica_weights_ = weights; }

private:
    std::unique_ptr<TranspositionTable> table_;
    std::optional<ChessenceWeights> chessence_weights_;
    std::optional<ChesicaWeights> chesica_weights_;
};

}  // namespace core::engine
