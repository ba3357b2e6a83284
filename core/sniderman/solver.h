#pragma once
// The exact solver: who wins a round from a position with best play under an object, and which
// first moves win. A depth-first search over the capture tree with
//  - a transposition table keyed on the position and the part of the capture history the object
//    still needs (history_summary), shared by every search of one solve() call;
//  - enhanced transposition cutoffs (a child the table already knows as lost for its mover wins
//    at once, one it knows as won is not searched again);
//  - captures that end the round in the mover's favour taken first, then the other children by
//    how many replies they leave (fewest first);
//  - object 4 decided as soon as it cannot change (EVEN has taken a king, or no king is left).
// What it costs and why a full deal takes seconds: docs/sniderman-solver.md.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
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
    // A table of 2^bucket_bits buckets of five entries (64 bytes a bucket), allocated once. 19
    // bits (32 MB) was the fastest for full deals: larger tables save positions but lose more
    // time to cache misses than they save.
    explicit Solver(int bucket_bits = 19);

    // Whether ODD wins from p (the round's captures so far in h) with best play.
    bool odd_wins(const Position& p, const CaptureHistory& h, Object object);
    // The result and every winning first move of the side to move. With stop_after, the search
    // stops once that many winning moves are found (winning_moves then holds only those).
    Solution solve(const Position& p, const CaptureHistory& h, Object object,
                   std::size_t stop_after = std::numeric_limits<std::size_t>::max());

    // Positions searched since construction (for benchmarks).
    std::uint64_t nodes() const { return nodes_; }

private:
    static constexpr int ways = 5;  // entries per 64-byte bucket
    struct alignas(64) Bucket {
        std::array<std::uint64_t, ways> cells{};
        std::array<std::uint32_t, ways>
            tags{};  // generation, piece count, summary, result; 0 empty
    };
    struct Child {
        Position position;
        CaptureHistory history;
        std::uint8_t replies = 0;
        std::uint8_t summary = 0;
        Bucket* bucket = nullptr;
    };
    // A child's state before it is searched: already decided for its mover, or still open.
    enum class Known : std::uint8_t { mover_wins, mover_loses, open };

    void start(Object object);
    std::uint32_t key_of(const Position& p, std::uint8_t summary) const;
    Bucket& bucket_of(std::uint64_t cells, std::uint8_t summary);
    Known lookup(const Bucket& b, std::uint64_t cells, std::uint32_t key) const;
    void store(Bucket& b, std::uint64_t cells, std::uint32_t key, bool mover_wins);
    // Fills c for the capture m from p and says whether the round is decided there.
    Known expand(const Position& p, const CaptureHistory& h, Move m, Child& c);
    // Whether the side to move in p wins; p has a capture and the round is still open.
    bool search(const Position& p, const CaptureHistory& h, std::uint8_t summary);

    std::vector<Bucket> table_;
    std::uint64_t bucket_mask_;
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
