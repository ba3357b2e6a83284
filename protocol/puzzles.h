#pragma once
// The puzzle bank file (issue 25, docs/puzzles.md) and a puzzle's JSON, one mapping for the tool
// that writes the bank (`chessence puzzles`) and the server that reads it and serves
// GET /api/puzzles/… (docs/protocol.md):
//   {"version": 1, "settings": {how it was made}, "puzzles": [puzzle, …]}
//   puzzle: {"id", "game", "rules", "fen", "to_move", "object"?, "object_text"?, "solution": [...],
//            "eval": {"cp": n} | {"mate": n} | {"result": "win"}, "second"?: {"cp": n},
//            "nodes"?: n}
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/expected.h"
#include "core/puzzles/puzzle.h"

namespace protocol {

inline constexpr int puzzle_bank_version = 1;

struct PuzzleBank {
    std::vector<core::puzzles::Puzzle> puzzles;
    // How the bank was made (the generator's options), for people; the server does not read it.
    nlohmann::json settings = nlohmann::json::object();
};

// A puzzle's JSON (the bank's entry and the API's answer are the same object). Sniderman adds
// the object and its text; Chessence and Chesica the engine's scores.
nlohmann::json puzzle_json(const core::puzzles::Puzzle& puzzle);

// The puzzle in `value`, checked in full: a known game and rule set, a position string that
// loads (as written by the game itself) and is not over, the right side to move, an object
// 1..10 for Sniderman only, a solution whose every move is legal in turn and written in the
// game's own notation, and the id puzzle_id() gives. The error says which field is wrong.
core::Expected<core::puzzles::Puzzle> parse_puzzle(const nlohmann::json& value);

// The bank file's text: the header, then one puzzle a line (small diffs when it is regenerated).
std::string puzzle_bank_text(const PuzzleBank& bank);

// The bank in `text`: version 1, every puzzle valid (parse_puzzle) and no id twice. The error
// names the first bad puzzle by its place and id.
core::Expected<PuzzleBank> parse_puzzle_bank(std::string_view text);

}  // namespace protocol
