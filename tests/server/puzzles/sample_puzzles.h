#pragma once
// A small valid puzzle bank for the server's puzzle tests: two puzzles of each game (positions
// and lines the finder found; only their validity matters here, not that they are puzzles).
#include <string>
#include <utility>
#include <vector>

#include "core/puzzles/puzzle.h"
#include "protocol/puzzles.h"

namespace puzzle_samples {

inline core::puzzles::Puzzle sample_puzzle(core::VariantId game, std::string fen, core::Side side,
                                           int object, std::vector<std::string> line) {
    core::puzzles::Puzzle p;
    p.game = game;
    p.fen = std::move(fen);
    p.to_move = side;
    p.object = object;
    p.solution = std::move(line);
    if (game == core::VariantId::sniderman) {
        p.proof.exact = true;
    } else {
        p.proof.best_cp = 500;
        p.proof.second_cp = 20;
        p.proof.nodes = 1000;
    }
    p.id = core::puzzles::puzzle_id(p.game, p.rules, p.fen, p.object);
    return p;
}

inline protocol::PuzzleBank sample_bank() {
    using core::Side;
    using core::VariantId;
    protocol::PuzzleBank bank;
    bank.puzzles = {
        sample_puzzle(VariantId::chessence, "km4/5*/1mm1*1/2*3/m*1M*1/3*2/1*2M1/*3M1/5K[] b 1 26",
                      Side::second, 0, {"c7xd5", "e2-c2", "b7-c9", "e3-d1", "c9-c7"}),
        sample_puzzle(VariantId::chessence, "kmm3/4m*/4*1/2*1MM/1*2*1/3*2/1*4/*3M1/4MK[] w 0 28",
                      Side::first, 0, {"f6-f7", "b9-b7", "f7xe8", "b7-d8", "e2-f2"}),
        sample_puzzle(VariantId::chesica, "8/8/8/3q4/3Q3q/8/Q6Q/8 b 0 35", Side::second, 0,
                      {"d5xd4", "a2-b3", "d4-e3", "b3-b4", "e3-f2"}),
        sample_puzzle(VariantId::chesica, "1q4q1/4Q3/8/8/8/Q3Q3/8/5Q1+q w 3 37", Side::first, 0,
                      {"f1-g2", "h1xf3", "e3xf3", "b8-a7", "e7-e8"}),
        sample_puzzle(VariantId::sniderman, "bRnn/BQBr/NRKq/krbN 1", Side::first, 2,
                      {"c1xb2", "a1xa2", "a3xb2", "a2xb2", "d1xb2"}),
        sample_puzzle(VariantId::sniderman, "rKbn/nBNN/rqRR/bQBk 1", Side::first, 2,
                      {"d4xc2", "a3xb1", "c1xb2", "a1xb2", "d2xd1"}),
    };
    return bank;
}

}  // namespace puzzle_samples
