#include "server/game/game_clock.h"

#include <algorithm>

namespace server {

using protocol::events::ClockReading;

namespace {

std::int64_t ms_between(ServerTime from, ServerTime to) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

}  // namespace

std::chrono::milliseconds gone_grace(const protocol::TimeControl& control) {
    const auto tenth = std::chrono::seconds(control.estimated_seconds() / 10);
    return std::clamp<std::chrono::milliseconds>(tenth, min_gone_grace, max_gone_grace);
}

std::int64_t lag_quota_gain_ms(const protocol::TimeControl& control) {
    return std::min<std::int64_t>(1000, 150 + 4 * control.estimated_seconds());
}

GameClock::GameClock(const protocol::TimeControl& control)
    : control_(control), left_{control.initial_ms(), control.initial_ms()} {}

void GameClock::start(std::optional<int> first_actor, ServerTime now) {
    if (control_.kind == protocol::ClockKind::correspondence) {
        running_ = first_actor;
        since_ = now;
    }
}

std::int64_t GameClock::left(int seat, ServerTime now) const {
    const auto held = left_[static_cast<std::size_t>(seat)];
    return running_ == seat ? held - std::max<std::int64_t>(0, ms_between(since_, now)) : held;
}

std::optional<ServerTime> GameClock::flag_time() const {
    if (!timed() || !running_) {
        return std::nullopt;
    }
    return since_ +
           std::chrono::milliseconds(left_[static_cast<std::size_t>(*running_)] + grace(*running_));
}

std::optional<int> GameClock::flagged(ServerTime now) const {
    if (timed() && running_ && left(*running_, now) + grace(*running_) <= 0) {
        return running_;
    }
    return std::nullopt;
}

std::int64_t GameClock::grace(int seat) const {
    if (!control_.real_time()) {
        return 0;
    }
    const auto gain = lag_quota_gain_ms(control_);
    return std::min(quota_[static_cast<std::size_t>(seat)] + gain, lag_quota_keep * gain);
}

GameClock::Action GameClock::after_action(int seat, std::optional<int> next, ServerTime now,
                                          int lag_ms) const {
    Action action;
    action.reading = reading(now);
    auto& left = action.reading.left;
    const auto mover = static_cast<std::size_t>(seat);
    if (control_.kind == protocol::ClockKind::correspondence) {
        action.in_time = running_ != seat || this->left(seat, now) > 0;
        left[mover] = control_.initial_ms();  // a new period for the mover's next move
        action.reading.running = next;
        return action;
    }
    if (running_ == seat) {
        const auto took = std::max<std::int64_t>(0, ms_between(since_, now));
        const auto quota = grace(seat);
        const auto credit =
            std::clamp<std::int64_t>(std::min<std::int64_t>(lag_ms, took), 0, quota);
        action.lag_credited = static_cast<int>(credit);
        action.in_time = left_[mover] - took + credit > 0;
        left[mover] = left_[mover] - took + credit + increment_ms(seat);
    }
    // The clocks start once both seats have acted; this action is the mover's.
    const bool both = acted_[1 - mover];
    action.reading.running = both ? next : std::nullopt;
    return action;
}

void GameClock::on_action(int seat, const std::optional<ClockReading>& reading, int lag_credited,
                          ServerTime now) {
    const auto mover = static_cast<std::size_t>(seat);
    if (control_.real_time() && running_ == seat) {
        const auto quota = grace(seat);
        quota_[mover] = std::max<std::int64_t>(0, quota - lag_credited);
    }
    acted_[mover] = true;
    if (reading) {
        set(*reading, now);
    }
}

ClockReading GameClock::reading(ServerTime now, bool stop) const {
    ClockReading out;
    out.by_player = by_player_;
    for (int seat = 0; seat < 2; ++seat) {
        out.left[static_cast<std::size_t>(seat)] = std::max<std::int64_t>(0, left(seat, now));
    }
    if (!stop) {
        out.running = running_;
    }
    out.at = unix_ms(now);
    return out;
}

void GameClock::set(const ClockReading& reading, ServerTime now) {
    left_ = reading.left;
    running_ = reading.running;
    since_ = now;
}

}  // namespace server
