#pragma once
// The two clocks of one game (docs/protocol.md, "Clocks"), as a value driven by the time it is
// given: no timers and no reading of the system clock, so it is tested without waiting. The room
// owns one (server/game/room_clock.cpp), feeds it every clock reading its events carry, and asks it
// what the next reading is when a player acts.
//
// Real time: each seat starts with the initial time; a seat's clock runs while it must act, once
// both seats have acted (the first action of each seat is not timed, as on lichess); each timed
// action adds the increment and credits the mover's measured lag up to its quota. Correspondence:
// the seat that must act has `days` for it, from the game's start; every action resets the mover's
// time. Unlimited: nothing runs.
#include <array>
#include <chrono>
#include <cstdint>
#include <optional>

#include "protocol/events.h"
#include "protocol/time_control.h"
#include "server/game/time_source.h"

namespace server {

// The rules around the clock, in one place.
// A real-time game whose next first action does not come within this window is aborted.
inline constexpr std::chrono::milliseconds first_move_window{30000};
// What `moretime` gives the opponent, and how often each player may give it in one game.
inline constexpr int moretime_ms = 15000;
inline constexpr int max_moretime_per_player = 5;
// How long a seated player of a real-time game must have been without a connection before the
// opponent may claim: a tenth of the estimated game (initial + 40 × increment), within these
// bounds.
inline constexpr std::chrono::seconds min_gone_grace{30};
inline constexpr std::chrono::seconds max_gone_grace{120};
// An unlimited game (no clock will ever end it) whose two players have both had no connection for
// this long ends by itself: aborted before both have moved, else a draw (`abandoned`).
inline constexpr std::chrono::hours abandoned_unlimited_after{72};
std::chrono::milliseconds gone_grace(const protocol::TimeControl& control);

// Lag compensation: each timed action adds `lag_quota_gain` to the mover's quota (at most
// lag_quota_keep × gain is kept); the credit is the smallest of the measured round trip, the
// quota and the time the action took.
std::int64_t lag_quota_gain_ms(const protocol::TimeControl& control);
// Milliseconds from `from` to `to` (negative when `to` is earlier).
inline std::int64_t ms_until(ServerTime from, ServerTime to) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}
inline constexpr int lag_quota_keep = 3;

class GameClock {
public:
    GameClock() = default;  // unlimited
    explicit GameClock(const protocol::TimeControl& control);

    const protocol::TimeControl& control() const { return control_; }
    bool timed() const { return control_.timed(); }

    // A correspondence clock runs from the start for the first seat to act.
    void start(std::optional<int> first_actor, ServerTime now);

    // Milliseconds `seat` has left at `now` (may be negative once its time is out).
    std::int64_t left(int seat, ServerTime now) const;
    std::optional<int> running() const { return running_; }
    // When the running clock's flag falls: once it has reached zero and the lag credit its seat
    // could still be given (grace()) is used up too; nothing when no clock runs.
    std::optional<ServerTime> flag_time() const;
    // The seat whose flag has fallen at `now`, if any.
    std::optional<int> flagged(ServerTime now) const;
    // How long past zero a real-time move of `seat` may still arrive and be saved by its lag
    // credit: the seat's lag quota after its next gain (0 in other games).
    std::int64_t grace(int seat) const;
    bool has_acted(int seat) const { return acted_[static_cast<std::size_t>(seat)]; }
    bool both_acted() const { return acted_[0] && acted_[1]; }

    // What an action of `seat` at `now` does to the clocks, with `next` the seat that must act
    // after it (nothing: the game is over) and `lag_ms` the mover's measured round trip: the
    // reading after it and the lag credited. Changes nothing.
    struct Action {
        protocol::events::ClockReading reading;
        int lag_credited = 0;
        bool in_time = true;  // false: the mover's time ran out before the action, credit included
    };
    Action after_action(int seat, std::optional<int> next, ServerTime now, int lag_ms) const;
    // Records an action of `seat` with the reading it produced (none in an unlimited game): the
    // clocks take the reading as of `now` and the mover's quota gives up `lag_credited`.
    void on_action(int seat, const std::optional<protocol::events::ClockReading>& reading,
                   int lag_credited, ServerTime now);

    // The clocks at `now`; with `stop`, as a reading in which nothing runs.
    protocol::events::ClockReading reading(ServerTime now, bool stop = false) const;
    // Takes a reading (a takeback, more time, the end of the game) as of `now`.
    void set(const protocol::events::ClockReading& reading, ServerTime now);
    // Since when the running clock runs; nothing when none does.
    std::optional<ServerTime> running_since() const {
        return running_ ? std::optional<ServerTime>(since_) : std::nullopt;
    }
    // The running clock did not run for `pause` (the server was down): it moves its start on.
    void pause(std::chrono::milliseconds pause) { since_ += pause; }
    // Which seats count as having acted (after a takeback).
    void set_acted(std::array<bool, 2> acted) { acted_ = acted; }
    // Keys of the readings it makes: player0/player1 (Sniderman) or white/black.
    void set_by_player(bool by_player) { by_player_ = by_player; }
    // What a timed action of `seat` adds to its clock: the increment, or nothing once the seat
    // went berserk (drop_increment, issue 43).
    std::int64_t increment_ms(int seat) const {
        return no_increment_[static_cast<std::size_t>(seat)] ? 0 : control_.increment_ms();
    }
    void drop_increment(int seat) { no_increment_[static_cast<std::size_t>(seat)] = true; }

private:
    protocol::TimeControl control_;
    std::array<std::int64_t, 2> left_{0, 0};  // at `since_` for the running seat
    std::optional<int> running_;
    ServerTime since_{};
    std::array<bool, 2> acted_{false, false};
    std::array<std::int64_t, 2> quota_{0, 0};
    bool by_player_ = false;
    std::array<bool, 2> no_increment_{false, false};  // a berserk seat's
};

}  // namespace server
