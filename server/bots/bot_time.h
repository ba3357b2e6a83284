#pragma once
// How long the computer thinks (issue 25). Without a running clock (unlimited or correspondence)
// each level has a fixed time a move, from 100 ms at level 1 to 1.5 s at level 8. With a real-time
// clock it budgets like a player: about a thirtieth of what it has left plus three quarters of the
// increment, never more than its level's time and never less than 20 ms; its clock runs while it
// thinks, so it can lose on time.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace server {

inline constexpr std::chrono::milliseconds min_bot_think{20};

// The time a move of `level` (1..8) without a running clock.
std::chrono::milliseconds level_move_time(int level);

// The time to think now: `level_time` (the level's, or a test's), capped in a real-time game by
// `left_ms` / 30 + 3/4 of `increment_ms` (`left_ms` empty: no real-time clock).
std::chrono::milliseconds bot_think_time(std::chrono::milliseconds level_time,
                                         std::optional<std::int64_t> left_ms,
                                         std::int64_t increment_ms);

// The time a move taken from the bot pool's queue may think when `waiting` more moves still wait
// for the pool's `threads` threads: `planned` shared out as planned × threads / (threads +
// waiting), never below min_bot_think (nor above `planned`). Under load the computer plays faster
// and a little weaker rather than making people wait: with 20 games on one thread a move then
// waits about as long as one move alone would take, not twenty.
std::chrono::milliseconds busy_think_time(std::chrono::milliseconds planned, std::size_t waiting,
                                          std::size_t threads);

}  // namespace server
