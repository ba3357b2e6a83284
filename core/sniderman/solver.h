#pragma once
// The exact solver: who wins a round from a position with best play under an object, and which
// first moves win. A transposition table memoises positions together with the part of the capture
// history the object still needs (history_summary); the side to move follows from the ply number.
// Measured (Nov 2026): a full deal reaches 24-40+ M distinct positions (deal 2026/0: 24.2 M, peak
// 6.5 M after 9 captures), so a retrograde pass over all of them cannot beat this per-object search
// (1-7 M nodes per object); one search for all ten objects at once took 2x the nodes of ten
// separate ones, and move ordering by fewest replies saves over 10x the nodes.
#include <array>
#include <cstdint>
#include <vector>

#include "core/sniderman/objects.h"
#include "core/sniderman/position.h"

namespace core::sniderman {

struct Solution {
    bool odd_wins = false;            // the result with best play from both sides
    std::vector<Move> winning_moves;  // the mover's first moves that win against every defence,
                                      // in notation order; empty when the mover loses
};

// Orders moves as their names sort ("a1xb2" < "a1xc3" < "b1x...").
bool notation_less(Move a, Move b);

class Solver {
public:
    // A table of 2^table_bits entries (16 bytes each), allocated once.
    explicit Solver(int table_bits = 20);

    // Whether ODD wins from p (the round's captures so far in h) with best play.
    bool odd_wins(const Position& p, const CaptureHistory& h, Object object);
    // The result and every winning first move of the side to move.
    Solution solve(const Position& p, const CaptureHistory& h, Object object);

    // Positions searched since construction (for benchmarks).
    std::uint64_t nodes() const { return nodes_; }

private:
    struct Child {
        Position position;
        CaptureHistory history;
        int replies = 0;
    };
    struct Entry {
        std::uint64_t cells = 0;
        std::uint32_t tag = 0;  // generation << 8 | summary << 1 | ply parity; 0 = empty
        std::uint8_t odd_wins = 0;
    };

    void start(Object object);
    std::uint32_t tag_of(const Position& p, const CaptureHistory& h) const;
    Entry& slot(std::uint64_t cells, std::uint32_t tag);
    const Entry* probe(const Position& p, const CaptureHistory& h);
    bool search(const Position& p, const CaptureHistory& h);
    // Plain minimax with cutoffs for positions under table_min_pieces: there, ordering and the
    // table cost more than the positions they save (measured on random deals).
    bool search_small(const Position& p, const CaptureHistory& h, const MoveList& moves);

    static constexpr int table_min_pieces = 7;

    std::vector<Entry> table_;
    std::uint64_t mask_;
    std::uint32_t generation_ = 0;
    Object object_ = Object::last_captured_white;
    std::uint64_t nodes_ = 0;
    // Scratch space for the children of the node being searched with n pieces: index n (each
    // capture removes a piece, so the levels of one search line never share an index).
    std::vector<std::array<Child, 128>> children_;
};

// The same answer as Solver::odd_wins by plain minimax without memory (for tests: small positions).
bool brute_force_odd_wins(const Position& p, const CaptureHistory& h, Object object);

}  // namespace core::sniderman
