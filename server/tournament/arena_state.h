#pragma once
// An arena tournament as a value (docs/tournaments.md): its settings, its players with their
// sheets and sides, and the games in progress. The machine (arena.h) decides on it and its
// reducer changes it; nothing else does.
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/variant.h"
#include "protocol/time_control.h"
#include "server/tournament/arena_clock.h"
#include "server/tournament/arena_scoring.h"

namespace server::tournament {

// An arena lasts from 20 minutes to 3 hours (issue 43).
inline constexpr std::int64_t min_arena_ms = 20 * 60'000;
inline constexpr std::int64_t max_arena_ms = 180 * 60'000;
// In its first seconds an arena pairs by rating order.
inline constexpr std::int64_t rating_order_ms = 15'000;
// Ratings a player may bring.
inline constexpr int min_rating = 0;
inline constexpr int max_rating = 4000;

struct ArenaConfig {
    ArenaTime starts_at = 0;
    std::int64_t duration_ms = 0;
    protocol::TimeControl clock;
    bool berserkable = true;
    core::VariantId variant = core::VariantId::chessence;
    core::RuleSet rules = core::RuleSet::house;  // Chessence's rule set (the others ignore it)
    bool rated = true;

    ArenaTime ends_at() const { return starts_at + duration_ms; }
    friend bool operator==(const ArenaConfig&, const ArenaConfig&) = default;
};

enum class PlayerStatus : std::uint8_t {
    active,     // paired when waiting
    paused,     // not paired until they come back
    withdrawn,  // left; kept in the standings, may join again
};

struct ArenaPlayer {
    std::string id;
    int rating = 0;
    int joined = 0;  // order of first joining: the standings' last tie-break
    PlayerStatus status = PlayerStatus::active;
    std::vector<SheetGame> sheet;   // finished games that count, in the order they ended
    std::vector<core::Side> sides;  // the side of every pairing, oldest first
    std::optional<std::string> last_opponent;
    std::optional<int> game;           // the number of the game they are in
    std::optional<PauseRecord> pause;  // counted pauses (a top player's)
    friend bool operator==(const ArenaPlayer&, const ArenaPlayer&) = default;
};

// A game in progress: paired, maybe started.
struct ArenaGame {
    int number = 0;     // the arena's own number for it, 1, 2, …
    std::string first;  // the player on the first side (White, ODD)
    std::string second;
    int first_rating = 0;  // their ratings when paired (the opponents' ratings in performance)
    int second_rating = 0;
    std::optional<std::string> game_id;  // the room's game once it started
    bool first_berserk = false;
    bool second_berserk = false;
    ArenaTime paired_at = 0;
    friend bool operator==(const ArenaGame&, const ArenaGame&) = default;
};

// A line of the arena's chat (docs/tournaments.md, "Chat"): who said it, under the name they had.
struct ArenaChatLine {
    std::string player;
    std::string name;
    std::string text;
    ArenaTime at = 0;
    friend bool operator==(const ArenaChatLine&, const ArenaChatLine&) = default;
};

struct ArenaState {
    ArenaConfig config;
    std::map<std::string, ArenaPlayer> players;
    std::map<int, ArenaGame> games;  // in progress, by number
    int next_game = 1;
    int next_joined = 0;
    bool finished = false;           // the end was applied: no game runs, nothing changes any more
    std::deque<ArenaChatLine> chat;  // the newest chat_lines_kept (server/limits.h), oldest first
    friend bool operator==(const ArenaState&, const ArenaState&) = default;
};

}  // namespace server::tournament
