#pragma once
// Game records for people and tools: the PGN-style text of a stored game (docs/records.md).
#include <optional>
#include <string>
#include <string_view>

#include "server/store.h"

namespace server {

// The record of game `game_id` (finished or not), or nothing if there is no such game. `site` is
// the server's public name for the Site tag.
std::optional<std::string> export_game_pgn(Store& store, std::string_view game_id, std::string_view site);

}  // namespace server
