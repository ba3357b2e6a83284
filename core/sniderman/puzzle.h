#pragma once
// Puzzles: a position in a dealt round, an object, and the side to move, whose winning first move
// is unique. Decision: a puzzle is taken from the middle of a real round (a deal, then 5 to 7
// random captures, so 9 to 11 pieces are left, either side to move), because the captures played
// so far matter to objects 4, 8, 9 and 10 and because full deals take seconds to solve exactly.
#include <cstdint>
#include <vector>

#include "core/sniderman/objects.h"
#include "core/sniderman/position.h"
#include "core/sniderman/solver.h"

namespace core::sniderman {

struct Puzzle {
    Position start;           // the deal
    std::vector<Move> moves;  // the captures played since the deal
    Position position;        // the puzzle position (start after moves)
    CaptureHistory history;   // the captures of `moves`
    Object object = Object::last_captured_white;
    Move answer{};  // the only first move with which the side to move wins
};

// The puzzle for `seed` (the same on every platform); candidates without exactly one winning
// first move are rejected until one fits.
Puzzle make_puzzle(std::uint64_t seed, Solver& solver);
Puzzle make_puzzle(std::uint64_t seed);

}  // namespace core::sniderman
