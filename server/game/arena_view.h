#pragma once
// What an arena shows (issue 43): its record, its state and its players' names as of one moment,
// and the protocol's values built from them — the tournament's info and the standings' lines —
// for the watchers' frames (arena_actor.cpp) and the HTTP API (net/http_tournaments.cpp). Pure.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/expected.h"
#include "protocol/tournament_messages.h"
#include "server/store/tournament_records.h"
#include "server/tournament/arena_state.h"

namespace server {

struct ArenaView {
    TournamentRecord record;
    tournament::ArenaState state;
    std::map<std::string, std::string> names;  // player id → display name
    std::int64_t standings_version = 0;
};

// The tournament, counted from `now` (unix ms).
protocol::TournamentInfo arena_info(const ArenaView& view, std::int64_t now);
// Every player's line, best first.
std::vector<protocol::TournamentRow> arena_rows(const ArenaView& view);
// The standings lines a watch shows at first.
inline constexpr std::size_t arena_first_page = 50;
// The answer to a watch of the arena at `now` for `player_id` (the `tournament` message): its
// first standings page, its duels, its kept chat lines, and the watcher's own line and game if
// they play in it.
std::string arena_watch_message(const ArenaView& view, const std::string& player_id,
                                std::int64_t now, const nlohmann::json& request_id);
// A line of the arena's chat as the messages carry it.
protocol::TournamentChatLine arena_chat_line(const tournament::ArenaChatLine& line);
// The games in progress that have started, the best placed first (by the better rank of their
// players, then the other's), at most `limit`.
inline constexpr std::size_t arena_duels_shown = 6;
std::vector<protocol::TournamentDuel> arena_duels(const ArenaView& view,
                                                  std::size_t limit = arena_duels_shown);
// The record's status as the state says at `now`: "finished" once the end was applied,
// "started" from the start, else "created".
std::string arena_status(const tournament::ArenaState& state, std::int64_t now);

// The arena of `record` rebuilt from its stored events: its state and the count of events.
struct ReplayedArena {
    tournament::ArenaState state;
    std::int64_t version = 0;
};
core::Expected<ReplayedArena> replay_arena(const TournamentRecord& record,
                                           const std::vector<StoredTournamentEvent>& events);

}  // namespace server
