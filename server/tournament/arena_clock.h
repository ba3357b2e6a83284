#pragma once
// The arena's rules of time (docs/tournaments.md, "Berserk", "The end" and "Pauses"): what berserk
// does to a player's clock, when pairing stops before the end, and how long a top player who
// paused waits before coming back. Pure functions of the tournament's clock and the times given.
#include <cstdint>
#include <optional>

#include "protocol/time_control.h"

namespace server::tournament {

// Milliseconds since the Unix epoch, as the server counts them (server::unix_ms of a ServerTime).
using ArenaTime = std::int64_t;

// Berserk halves the base unless the base is under this many increments (then the base stays).
inline constexpr int berserk_keeps_base_below_increments = 40;
// Pairing stops max(min, min(base / 2, max)) before the end.
inline constexpr std::int64_t pairing_stop_min_ms = 30'000;
inline constexpr std::int64_t pairing_stop_max_ms = 120'000;
// Pauses (lila's rule): a player ranked in the top `pause_top_ranks` who pauses waits
// `pause_first_ms` the first time; the n-th pause waits (n − 1) × estimated game time / 15,
// between `pause_first_ms` and `pause_max_ms`. A pause is forgotten `pause_memory_ms` after it.
inline constexpr int pause_top_ranks = 7;
inline constexpr std::int64_t pause_first_ms = 10'000;
inline constexpr std::int64_t pause_max_ms = 120'000;
inline constexpr std::int64_t pause_memory_ms = 20 * 60'000;
inline constexpr int pause_game_time_divisor = 15;
// A player may come back once no more than this is left of the wait (lila's rounding).
inline constexpr std::int64_t pause_grace_ms = 1'000;

// One player's clock at the start of a game.
struct PlayerClock {
    std::int64_t initial_ms = 0;
    std::int64_t increment_ms = 0;
    friend bool operator==(const PlayerClock&, const PlayerClock&) = default;
};

// Whether `control` has a base time berserk can cut: real time with an initial time above 0.
bool has_base_time(const protocol::TimeControl& control);
// The clock of a player who went berserk under `control` (which has_base_time): the base halved
// unless it is under 40 × the increment (then it stays), and no increment.
PlayerClock berserk_clock(const protocol::TimeControl& control);
// How long before the end of an arena played with `control` the last pairing pass may run.
std::int64_t pairing_stop_ms(const protocol::TimeControl& control);

// What the arena remembers of a top player's pauses.
struct PauseRecord {
    int pauses = 0;           // counted pauses, the last one included
    ArenaTime paused_at = 0;  // when the last one was
    friend bool operator==(const PauseRecord&, const PauseRecord&) = default;
};

// The record after a counted pause at `now`: one more pause, or a fresh first one when the last
// was `pause_memory_ms` or longer ago.
PauseRecord after_pause(const std::optional<PauseRecord>& before, ArenaTime now);
// How long the pause of `record` makes its player wait in an arena played with `control`.
std::int64_t pause_delay_ms(const PauseRecord& record, const protocol::TimeControl& control);
// What is left at `now` of the wait: 0 when the player may come back (no record, a forgotten
// one, or no more than `pause_grace_ms` left).
std::int64_t pause_wait_left_ms(const std::optional<PauseRecord>& record,
                                const protocol::TimeControl& control, ArenaTime now);

}  // namespace server::tournament
