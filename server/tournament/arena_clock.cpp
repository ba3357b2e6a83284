#include "server/tournament/arena_clock.h"

#include <algorithm>

namespace server::tournament {

bool has_base_time(const protocol::TimeControl& control) {
    return control.real_time() && control.initial_seconds > 0;
}

PlayerClock berserk_clock(const protocol::TimeControl& control) {
    const bool keeps_base =
        control.initial_seconds < berserk_keeps_base_below_increments * control.increment_seconds;
    return PlayerClock{keeps_base ? control.initial_ms() : control.initial_ms() / 2, 0};
}

std::int64_t pairing_stop_ms(const protocol::TimeControl& control) {
    const std::int64_t base = control.real_time() ? control.initial_ms() : 0;
    return std::max(pairing_stop_min_ms, std::min(base / 2, pairing_stop_max_ms));
}

PauseRecord after_pause(const std::optional<PauseRecord>& before, ArenaTime now) {
    if (!before || now - before->paused_at >= pause_memory_ms) {
        return PauseRecord{1, now};
    }
    return PauseRecord{before->pauses + 1, now};
}

std::int64_t pause_delay_ms(const PauseRecord& record, const protocol::TimeControl& control) {
    const std::int64_t step_ms = control.estimated_seconds() / pause_game_time_divisor * 1000;
    return std::clamp(step_ms * (record.pauses - 1), pause_first_ms, pause_max_ms);
}

std::int64_t pause_wait_left_ms(const std::optional<PauseRecord>& record,
                                const protocol::TimeControl& control, ArenaTime now) {
    if (!record || now - record->paused_at >= pause_memory_ms) {
        return 0;
    }
    const std::int64_t left = record->paused_at + pause_delay_ms(*record, control) - now;
    return left > pause_grace_ms ? left : 0;
}

}  // namespace server::tournament
