#pragma once
// Game analysis (issue 25): every position of a game evaluated by the engine at full strength
// within a fixed node budget (Sniderman: exactly, by the solver), each move judged by how much of
// its mover's winning chances it gave away, and each side's accuracy, as lichess does for chess.
// Pure computation, deterministic for a given budget: each position is searched by a fresh engine,
// so the positions may be analysed one at a time, in any order, on any thread. The curve, the
// thresholds and the accuracy formula: docs/engine.md, "Analysis".
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "core/game.h"

namespace core::engine {

// Nodes searched in each position by default (Chessence and Chesica): about depth 7–8 in
// Chessence, 10–12 in Chesica; docs/engine.md has the time it takes.
inline constexpr std::uint64_t default_analysis_nodes = 200'000;

// An evaluation from the first side's point of view (White; ODD in Sniderman), as lichess keeps
// White's.
struct Evaluation {
    enum class Kind : std::uint8_t { cp, mate, result };
    Kind kind = Kind::cp;
    // cp: the engine's units (a Chessence man 257, a Chesica bishop 100), positive when the first
    // side stands better; mate: moves to the forced end, positive when the first side wins it;
    // result: 1 the first side wins, -1 the second side wins, 0 a draw (a finished game, or
    // Sniderman's exact result with best play).
    int value = 0;
    friend bool operator==(const Evaluation&, const Evaluation&) = default;
};

struct PositionAnalysis {
    Side to_move = Side::first;
    Evaluation eval;
    // The engine's move and its principal variation; empty when the game is over. Sniderman: a
    // winning capture (the first in notation order) and only it, or nothing when every capture
    // loses.
    std::string best;
    std::vector<std::string> pv;
    std::uint64_t nodes = 0;
};

// The position of `game` as it stands (its history counts: repetitions, Chesica's rule 5), at
// level 8 within `nodes` nodes (Sniderman: solved exactly; `nodes` is not used). An error when
// `stop` was set during the search (its result would depend on when) or the position cannot be
// read.
Expected<PositionAnalysis> analyse_position(const Game& game, std::uint64_t nodes,
                                            const std::atomic<bool>* stop = nullptr);

enum class Judgement : std::uint8_t { none, inaccuracy, mistake, blunder };

// "inaccuracy", "mistake", "blunder"; "" for none.
std::string_view judgement_name(Judgement judgement);

// The winning chances of `side` (0–100) by `eval` in `variant`: lichess's logistic curve with a
// slope per game, the score capped at the curve's ±1000 centipawns (a forced mate counts as the
// cap), a result 100, 50 or 0.
double win_percent(VariantId variant, const Evaluation& eval, Side side);
// The judgement of a move that took its mover's winning chances from `before` to `after`: a drop
// of 15 points or more is a blunder, 10 a mistake, 5 an inaccuracy (lichess's thresholds).
Judgement judge_move(double before, double after);
// lichess's accuracy of one move (0–100) from the same two numbers.
double move_accuracy(double before, double after);
// A side's accuracy over its moves: the mean of their arithmetic and harmonic means (lichess's
// without its volatility weights); nothing when the side made no move.
std::optional<double> game_accuracy(const std::vector<double>& move_accuracies);

struct MoveAnalysis {
    int ply = 0;  // 1 for the first move
    std::string move;
    Side mover = Side::first;
    Evaluation eval;  // of the position after the move
    double win = 50;  // the first side's winning chances after the move
    // The engine's move and line in the position before the move. Sniderman: the move played when
    // it kept the mover's result (no capture was better), else a winning capture.
    std::string best;
    std::vector<std::string> pv;
    Judgement judgement = Judgement::none;
    double accuracy = 100;
};

// The moves of one game (one Sniderman round) judged: `positions[k]` is the analysis of the
// position after k of `moves` (so there is one more position than moves).
std::vector<MoveAnalysis> judge_moves(VariantId variant, const std::vector<std::string>& moves,
                                      const std::vector<PositionAnalysis>& positions);

// The positions of a game from `options` through `moves`: element k after k moves. An error names
// the first move that cannot be played.
Expected<std::vector<std::unique_ptr<Game>>> game_positions(VariantId variant,
                                                            const GameOptions& options,
                                                            const std::vector<std::string>& moves);

struct GameAnalysis {
    std::vector<PositionAnalysis> positions;
    std::vector<MoveAnalysis> moves;
    std::array<std::optional<double>, 2> accuracy;  // by side: the first, the second
};

// A whole game at once, on the calling thread (the tools and the tests; the server analyses one
// position per job).
Expected<GameAnalysis> analyse_game(VariantId variant, const GameOptions& options,
                                    const std::vector<std::string>& moves,
                                    std::uint64_t nodes = default_analysis_nodes);

}  // namespace core::engine
