// Time in the game machine (docs/protocol.md, "Clocks"): the clock part of the reducer, what time
// alone decides (flag fall, a first move that does not come), and the requests around time:
// abort, claims against a player who left, more time, berserk (a tournament game's, issue 43).
#include "server/game/game_machine.h"

#include "server/tournament/arena_clock.h"

namespace server {

using protocol::ErrorCode;
using protocol::RequestType;
namespace events = protocol::events;
using events::RoomEvent;

namespace {

// Which seat acted in an action event.
template <class E>
std::optional<std::string> actor_name(const E& e, bool sniderman) {
    if constexpr (std::is_same_v<E, events::Move>) {
        return sniderman ? e.player : std::optional<std::string>(e.by);
    } else {
        return e.by;
    }
}

// After an action or a takeback: when a real-time game is aborted if nobody acts.
void update_abort_deadline(GameState& state, ServerTime now) {
    if (state.result || !state.time_control.real_time() || state.clock.both_acted()) {
        state.abort_deadline.reset();
        return;
    }
    state.abort_deadline = now + first_move_window;
}

// What berserk takes off a seat's clock under `control` (which has a base time).
std::int64_t berserk_cut_ms(const protocol::TimeControl& control) {
    return control.initial_ms() - tournament::berserk_clock(control).initial_ms;
}

// The seat whose first move did not come in time: the one that has not acted yet, or (neither
// has) the one to act first.
int missed_first_move_seat(const GameState& state) {
    if (state.clock.has_acted(0) != state.clock.has_acted(1)) {
        return state.clock.has_acted(0) ? 1 : 0;
    }
    return state.acting_seat().value_or(0);
}

Decision decide_abort(const GameState& state, ServerTime now) {
    if (state.in_tournament()) {
        return Decision::refuse(ErrorCode::wrong_phase,
                                "a tournament game cannot be aborted; resign instead");
    }
    if (state.clock.both_acted()) {
        return Decision::refuse(ErrorCode::wrong_phase,
                                "a game can be aborted only until both players have moved");
    }
    Decision decision;
    decision.events.push_back(game_over(state, {std::nullopt, "aborted"}, now));
    return decision;
}

Decision decide_claim(const GameState& state, const Command& command, ServerTime now) {
    if (state.time_control.kind == protocol::ClockKind::correspondence) {
        return Decision::refuse(ErrorCode::not_supported,
                                "in correspondence the time for each move decides, not presence");
    }
    if (!state.clock.both_acted()) {
        return Decision::refuse(ErrorCode::wrong_phase,
                                state.in_tournament()
                                    ? "the game has not started yet"
                                    : "the game has not started yet: abort it instead");
    }
    const int seat = *command.seat;
    const int opponent = 1 - seat;
    const auto wait = claim_in(state, command.gone_since[static_cast<std::size_t>(opponent)], now);
    if (!wait) {
        return Decision::refuse(ErrorCode::claim_too_early,
                                state.seat_name(opponent) + " is connected");
    }
    if (*wait > 0) {
        return Decision::refuse(ErrorCode::claim_too_early,
                                "you can claim in " + std::to_string((*wait + 999) / 1000) + " s");
    }
    const bool victory = command.request.type == RequestType::claim_victory;
    Decision decision;
    decision.events.push_back(game_over(
        state,
        {victory ? std::optional<std::string>(state.seat_name(seat)) : std::nullopt, "abandoned"},
        now));
    return decision;
}

Decision decide_more_time(const GameState& state, const Command& command, ServerTime now) {
    if (!state.time_control.real_time()) {
        return Decision::refuse(ErrorCode::not_supported, "only real-time games have more time");
    }
    const int seat = *command.seat;
    if (state.moretime_given[static_cast<std::size_t>(seat)] >= max_moretime_per_player) {
        return Decision::refuse(ErrorCode::rate_limited,
                                "you have given more time " +
                                    std::to_string(max_moretime_per_player) +
                                    " times in this game");
    }
    auto clock = state.clock.reading(now);
    clock.left[static_cast<std::size_t>(1 - seat)] += moretime_ms;
    Decision decision;
    decision.events.push_back(events::MoreTime{state.seat_name(seat), moretime_ms, clock});
    return decision;
}

// Berserk (docs/tournaments.md): a seated player of a tournament game that allows it, with a base
// time, once, before their own first move. The event carries the clocks with that seat's base
// cut (berserk_clock: what it had, less what berserk takes off the base).
Decision decide_berserk(const GameState& state, const Command& command, ServerTime now) {
    if (!state.in_tournament()) {
        return Decision::refuse(ErrorCode::berserk_not_allowed,
                                "berserk is only for tournament games");
    }
    if (!state.record.berserkable) {
        return Decision::refuse(ErrorCode::berserk_not_allowed,
                                "this tournament does not allow berserk");
    }
    if (!tournament::has_base_time(state.time_control)) {
        return Decision::refuse(ErrorCode::berserk_not_allowed,
                                "berserk needs a real-time clock with a base time");
    }
    const int seat = *command.seat;
    const auto index = static_cast<std::size_t>(seat);
    if (state.berserk[index]) {
        return Decision::refuse(ErrorCode::already_berserk, "you have gone berserk already");
    }
    if (state.clock.has_acted(seat)) {
        return Decision::refuse(ErrorCode::berserk_after_first_move,
                                "berserk is possible only before your first move");
    }
    auto clock = state.clock.reading(now);
    clock.left[index] =
        std::max<std::int64_t>(0, clock.left[index] - berserk_cut_ms(state.time_control));
    Decision decision;
    decision.events.push_back(events::Berserk{state.seat_name(seat), clock});
    return decision;
}

}  // namespace

Decision decide_clock_request(const GameState& state, const Command& command, ServerTime now) {
    if (state.result) {
        return Decision::refuse(ErrorCode::game_over, "the game is over");
    }
    switch (command.request.type) {
        case RequestType::abort:
            return decide_abort(state, now);
        case RequestType::claim_victory:
        case RequestType::claim_draw:
            return decide_claim(state, command, now);
        case RequestType::berserk:
            return decide_berserk(state, command, now);
        default:
            return decide_more_time(state, command, now);
    }
}

std::vector<RoomEvent> decide_time(const GameState& state, ServerTime now) {
    std::vector<RoomEvent> out;
    if (state.result) {
        return out;
    }
    if (const auto flagged = state.clock.flagged(now)) {
        out.push_back(game_over(state, {state.seat_name(1 - *flagged), "timeout"}, now));
    } else if (state.abort_deadline && now >= *state.abort_deadline) {
        if (state.in_tournament()) {
            // A tournament game is not aborted: whoever did not make their first move loses.
            const int missed = missed_first_move_seat(state);
            out.push_back(game_over(state, {state.seat_name(1 - missed), "no_start"}, now));
        } else {
            out.push_back(game_over(state, {std::nullopt, "aborted"}, now));
        }
    }
    return out;
}

std::optional<ServerTime> next_deadline(const GameState& state) {
    if (state.result) {
        return std::nullopt;
    }
    auto due = state.clock.flag_time();
    if (state.abort_deadline && (!due || *state.abort_deadline < *due)) {
        due = state.abort_deadline;
    }
    return due;
}

std::optional<ServerTime> absence_deadline(const GameState& state, const GoneSince& gone_since) {
    if (state.result || state.time_control.kind != protocol::ClockKind::unlimited ||
        !gone_since[0] || !gone_since[1]) {
        return std::nullopt;
    }
    return std::max(*gone_since[0], *gone_since[1]) + abandoned_unlimited_after;
}

std::vector<RoomEvent> decide_absence(const GameState& state, const GoneSince& gone_since,
                                      ServerTime now) {
    std::vector<RoomEvent> out;
    if (const auto due = absence_deadline(state, gone_since); due && now >= *due) {
        const char* reason = state.clock.both_acted() ? "abandoned" : "aborted";
        out.push_back(game_over(state, {std::nullopt, reason}, now));
    }
    return out;
}

namespace {

// The berserk seat's clock: the event's reading, no increment from now on, and the readings kept
// for takebacks (all from before that seat's first move) cut as its clock was.
void apply_berserk_clock(GameState& state, const events::Berserk& berserk, ServerTime now) {
    const auto seat = state.seat_from_name(berserk.by);
    if (!seat) {
        return;
    }
    state.clock.set(berserk.clock, now);
    state.clock.drop_increment(*seat);
    if (state.keeps_history && tournament::has_base_time(state.time_control)) {
        const auto index = static_cast<std::size_t>(*seat);
        for (auto& reading : state.clock_history) {
            reading.left[index] =
                std::max<std::int64_t>(0, reading.left[index] - berserk_cut_ms(state.time_control));
        }
    }
}

}  // namespace

void apply_clock(GameState& state, const RoomEvent& event, ServerTime now) {
    std::visit(
        [&](const auto& e) {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, events::Move> ||
                          std::is_same_v<E, events::ObjectNamed> ||
                          std::is_same_v<E, events::SideChosen>) {
                const auto seat =
                    state.seat_from_name(actor_name(e, state.match.has_value()).value_or(""));
                if (!seat) {
                    return;
                }
                state.clock.on_action(*seat, e.clock, e.lag_ms, now);
                if constexpr (std::is_same_v<E, events::Move>) {
                    if (state.clock.timed() && !state.match && state.keeps_history) {
                        state.clock_history.push_back(state.clock.reading(now));
                    }
                }
                update_abort_deadline(state, now);
            } else if constexpr (std::is_same_v<E, events::GameOver>) {
                state.clock.set(e.clock ? *e.clock : state.clock.reading(now, true), now);
                state.abort_deadline.reset();
            } else if constexpr (std::is_same_v<E, events::MoreTime>) {
                state.clock.set(e.clock, now);
            } else if constexpr (std::is_same_v<E, events::Berserk>) {
                apply_berserk_clock(state, e, now);
            } else if constexpr (std::is_same_v<E, events::Takeback>) {
                if (e.clock) {
                    state.clock.set(*e.clock, now);
                }
                update_abort_deadline(state, now);
            }
        },
        event);
}

void resume(GameState& state, ServerTime now, const Downtime& downtime) {
    if (state.result) {
        return;
    }
    if (const auto since = state.clock.running_since()) {
        state.clock.pause(downtime.between(*since, now));
    }
    if (state.abort_deadline) {
        const auto window_start = *state.abort_deadline - first_move_window;
        *state.abort_deadline += downtime.between(window_start, now);
    }
}

std::optional<std::int64_t> claim_in(const GameState& state,
                                     const std::optional<ServerTime>& gone_since, ServerTime now) {
    if (state.result || !gone_since ||
        state.time_control.kind == protocol::ClockKind::correspondence) {
        return std::nullopt;
    }
    const auto grace = state.time_control.real_time() ? gone_grace(state.time_control)
                                                      : std::chrono::milliseconds(max_gone_grace);
    return std::max<std::int64_t>(0, grace.count() - ms_until(*gone_since, now));
}

}  // namespace server
