#pragma once
// What there is to analyse in a stored game (issue 25): its moves from its start position, or in
// a Sniderman match each round's captures from its deal under its object, with who played which
// side, and every position the engine (or the solver) must look at. Built from the game's record
// and its stored events, as the records are; pure.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/game.h"
#include "server/store/store.h"

namespace server {

// One game to judge move by move: a Chessence or Chesica game, or one Sniderman round.
struct AnalysedLine {
    int round = 0;  // Sniderman: the round (from 1); 0 in the other games
    std::string start_fen;
    int object = 0;  // Sniderman
    // The seats (as the API names them) of the side that moves first and of the other: "white" and
    // "black", or in a Sniderman round the players who were ODD and EVEN.
    std::array<std::string, 2> seats;
    std::vector<std::string> moves;
    // The positions: element k after k moves (moves.size() + 1 of them).
    std::vector<std::unique_ptr<core::Game>> positions;
};

struct AnalysisInput {
    std::string game_id;
    core::VariantId variant = core::VariantId::chessence;
    std::vector<AnalysedLine> lines;  // Sniderman: the rounds with at least one capture
};

// The analysis input of `game` (finished or not) from its stored events: the moves as they stand
// (moves taken back are not in it). An error when a move cannot be replayed.
core::Expected<AnalysisInput> analysis_input(const GameRecord& game,
                                             const std::vector<StoredEvent>& events);

}  // namespace server
