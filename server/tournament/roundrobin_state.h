#pragma once
// A round robin as a value (docs/tournaments.md, "Round robin"): its settings, its players and,
// once it started, every game of its schedule. The machine (roundrobin.h) decides on it and its
// reducer changes it; nothing else does.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/variant.h"
#include "protocol/time_control.h"

namespace server::tournament {

using RoundRobinTime = std::int64_t;  // milliseconds since the Unix epoch

// How long a game may wait for its two players (the deadline's step per round).
inline constexpr std::int64_t min_real_time_game_deadline_ms = 10 * 60'000;
inline constexpr std::int64_t max_real_time_game_deadline_ms = 24 * 3'600'000;
inline constexpr std::int64_t min_correspondence_game_deadline_ms = 24 * 3'600'000;
inline constexpr std::int64_t max_correspondence_game_deadline_ms = 90LL * 24 * 3'600'000;

struct RoundRobinConfig {
    RoundRobinTime starts_at = 0;
    bool double_round = false;  // each pair plays twice, colours swapped
    // Game g of round r must start before starts_at + r × game_deadline_ms: real time 10 min to
    // 1 day, correspondence 1 to 90 days.
    std::int64_t game_deadline_ms = 0;
    protocol::TimeControl clock;  // real time or correspondence
    core::VariantId variant = core::VariantId::chessence;
    core::RuleSet rules = core::RuleSet::house;  // Chessence's rule set (the others ignore it)
    bool rated = true;
    bool bots_allowed = false;
    int max_players = 16;  // 3–16

    friend bool operator==(const RoundRobinConfig&, const RoundRobinConfig&) = default;
};

struct RoundRobinPlayer {
    std::string id;
    int rating = 0;
    bool bot = false;
    int joined = 0;  // order of joining: the starting numbers follow it
    int number = 0;  // the starting number (1, 2, …) once the tournament started
    bool withdrawn = false;
    std::optional<int> game;  // the number of the game they are playing
    friend bool operator==(const RoundRobinPlayer&, const RoundRobinPlayer&) = default;
};

enum class RoundRobinGameState : std::uint8_t {
    waiting,      // not started yet
    in_progress,  // its two players were put in it (game_id once its room started it)
    finished,     // played: `winner`, or a draw
    forfeit,      // not played: `winner` was there (or the loser withdrew), a point without SB
    unplayed,     // not played by its deadline with neither or both there: 0 for both
};

// A game of the schedule.
struct RoundRobinGame {
    int number = 0;     // 1, 2, … in schedule order (by round, then board)
    int round = 0;      // 1, 2, …
    std::string first;  // the player on the first side (White)
    std::string second;
    RoundRobinTime deadline = 0;  // starts_at + round × game_deadline_ms
    RoundRobinGameState state = RoundRobinGameState::waiting;
    std::optional<std::string> game_id;  // the room's game, while in progress or once played
    std::optional<core::Side> winner;    // finished or forfeit; nothing: a draw
    friend bool operator==(const RoundRobinGame&, const RoundRobinGame&) = default;
};

struct RoundRobinState {
    RoundRobinConfig config;
    std::map<std::string, RoundRobinPlayer> players;
    std::vector<RoundRobinGame> games;  // the schedule once started; games[i].number == i + 1
    int next_joined = 0;
    bool started = false;
    bool finished = false;   // nothing changes any more
    bool cancelled = false;  // finished at the start, with fewer than 3 players
    friend bool operator==(const RoundRobinState&, const RoundRobinState&) = default;
};

// Whether the game no longer waits or runs (finished, forfeit or unplayed).
inline bool game_resolved(const RoundRobinGame& game) {
    return game.state != RoundRobinGameState::waiting &&
           game.state != RoundRobinGameState::in_progress;
}

}  // namespace server::tournament
