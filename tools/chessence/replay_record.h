#pragma once
// `chessence replay <variant> --record <file>`: replays every game of a record file
// (docs/records.md).
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/expected.h"
#include "core/record.h"
#include "core/variant.h"

namespace cli {

// Replays one input object {"moves": [...], "fen"?: "...", "object"?: 1..10} (replay.cpp) into the
// JSON-lines output object: {"plies": [...], "result": …} or {"error": {ply, move, message}}.
nlohmann::json replay_line(core::VariantId variant, core::RuleSet rules,
                           const nlohmann::json& input);

// The records in the file `path`; the error is "cannot read record file '<path>'" or
// "<path>: <what is malformed, with its line>". (replay --record, analyse --record, puzzles
// --records)
core::Expected<std::vector<core::Record>> read_record_file(const std::string& path);

// Reads the records in `path` and writes one replay_line output per record to `out`, with the
// record's clocks read back: "time_control" (its TimeControl tag) and "clocks" (each move's
// %clk in milliseconds, null where a move has none) when it has them. A record's RuleSet tag
// overrides `rules`; FEN and Object tags give the start position and the object; a record of
// another variant gives an error line. An unreadable or malformed file is reported on
// `err` (with the line number) and gives exit code 1.
int run_replay_record(core::VariantId variant, core::RuleSet rules, const std::string& path,
                      std::ostream& out, std::ostream& err);

}  // namespace cli
