#pragma once
// A puzzle (issue 25): a position of one of the three games in which exactly one first move wins
// for the side to move, with the line that shows it. The finder (finder.h) proves it; the bank
// file (protocol/puzzles.h) carries it to the server. The position is the whole puzzle: it is
// played from `fen` as a game loaded there (no earlier history; a Sniderman round with no
// captures before it).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/variant.h"

namespace core::puzzles {

// What the winning move was shown to be worth. Chessence and Chesica: the engine's two searches
// at `nodes` nodes each, in evaluation units for the side to move (a Chessence man is 257, a
// Chesica bishop 100). Sniderman: the exact solver's proof (`exact`); the scores stay zero.
struct Proof {
    int best_cp = 0;             // the winning move (a forced win: the engine's mate score)
    std::optional<int> mate_in;  // moves to the forced win, when the search saw one
    int second_cp = 0;           // the best of every other move
    std::uint64_t nodes = 0;     // the node budget of each proof search
    bool exact = false;          // Sniderman: proved by the solver
    friend bool operator==(const Proof&, const Proof&) = default;
};

struct Puzzle {
    std::string id;  // puzzle_id(...)
    VariantId game = VariantId::chessence;
    RuleSet rules = RuleSet::house;
    std::string fen;
    Side to_move = Side::first;
    int object = 0;  // Sniderman: the round's object, 1..10; 0 in the other games
    // The winning first move (the only one), then the best continuation: an odd number of plies,
    // so it ends with a move of the solver's side, or earlier when the game ends.
    std::vector<std::string> solution;
    Proof proof;
    friend bool operator==(const Puzzle&, const Puzzle&) = default;
};

// A stable id from what makes the puzzle: 12 lower-case hex digits of a 64-bit FNV-1a hash of the
// game, the rules, the position string and the object. The same on every platform.
std::string puzzle_id(VariantId game, RuleSet rules, std::string_view fen, int object);

// The position without its move counters (Chessence and Chesica: the fields before the last
// two; Sniderman: all of it) and the object: two puzzles with the same key are the same puzzle.
std::string duplicate_key(VariantId game, std::string_view fen, int object);

}  // namespace core::puzzles
