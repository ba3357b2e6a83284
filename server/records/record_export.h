#pragma once
// Game records for people and tools: the PGN-style text of a stored game (docs/records.md).
// Chessence and Chesica games give one record; a Sniderman match gives one record per round.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "core/record.h"
#include "server/store/store.h"

namespace server {

// The record of game `game_id` (finished or not), or nothing if there is no such game; an error
// if the store cannot be read. `site` is the server's public name for the Site tag.
core::Expected<std::optional<std::string>> export_game_pgn(Store& store, std::string_view game_id,
                                                           std::string_view site);

// The records of `game` from its stored events (docs/protocol.md event objects); `names` are the
// display names by seat. Malformed events are skipped, never fatal.
std::vector<core::Record> game_records(const GameRecord& game,
                                       const std::vector<std::string>& names,
                                       const std::vector<StoredEvent>& events,
                                       std::string_view site);

}  // namespace server
