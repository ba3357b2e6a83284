#pragma once
// Pieces shared by the record export of the two-colour games and of Sniderman matches.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/record.h"
#include "protocol/events.h"
#include "server/store/store.h"

namespace server::record_detail {

// Event, Site and Date tags (Date "YYYY.MM.DD" in UTC, "????.??.??" when unknown).
core::Record common_record(const GameRecord& game, std::string_view site, const char* event);

// "1-0" when the first side (white, odd) won, "0-1" the second, "1/2-1/2" a draw, else "*".
std::string result_token(std::string_view winner_side, bool decided);

// Sets the record's move numbering from the last fields of a position string.
void number_from_fen(core::Record& record, const std::string& variant, const std::string& fen);

// The TimeControl tag's value: the game's stored time control ("-" when unlimited).
std::string time_control_tag(const GameRecord& game);

// The mover's clock after a move (for its %clk comment), when the move carries the clocks.
std::optional<std::int64_t> mover_clock(const protocol::events::Move& move, bool sniderman);

// The display name of `seat`, or "?" when unknown.
std::string name_of(const std::vector<std::string>& names, std::size_t seat);

// One record per round of a Sniderman match, from its events.
std::vector<core::Record> sniderman_records(const GameRecord& game,
                                            const std::vector<std::string>& names,
                                            const std::vector<protocol::events::RoomEvent>& events,
                                            std::string_view site);

}  // namespace server::record_detail
