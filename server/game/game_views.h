#pragma once
// What a game state looks like on the wire (docs/protocol.md, "Snapshot", "Sniderman match",
// "Clocks"): pure functions of a GameState and what the room knows of its watchers.
#include <array>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/sniderman/match.h"
#include "server/game/game_state.h"

namespace server {

// What the room knows of a seated player besides the game.
struct SeatPresence {
    std::string name;  // display name
    bool online = false;
    std::optional<int> lag_ms;
    std::optional<std::int64_t> claim_in;
};

// A chat line as the protocol shows it: {channel, from, player_id, seat (null for a spectator),
// text, at}.
nlohmann::json chat_line_json(const ChatLine& line);

// The whole room as the `snapshot` message's fields (without type and id).
nlohmann::json snapshot_json(const GameState& state, const std::array<SeatPresence, 2>& seats,
                             int spectators, const nlohmann::json& rating_change, ServerTime now);
// The position now, for a catch-up (`events`): the position fields and the clock, with nobody to
// move once the game is over.
nlohmann::json position_now_json(const GameState& state, ServerTime now);
// {time_control, clock, abort_in}.
nlohmann::json clock_fields(const GameState& state, ServerTime now);
// The Sniderman `match` object.
nlohmann::json match_json(const GameState& state);
// Why a finished round went the way it did ({"why": "…"}), or {} for a round not over.
nlohmann::json round_why_json(const core::sniderman::RoundRecord& record);

}  // namespace server
