// A room's clocks (docs/protocol.md, "Clocks"): the clock part of the reducer, the readings an
// action produces, the timer that ends the game when a flag falls or a first move does not come,
// and the requests around time: abort, claims against a player who left, more time.
#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "server/game/room.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;
namespace events = protocol::events;

namespace {

std::int64_t ms_until(SteadyTime from, SteadyTime to) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

// Which seat acted in an action event.
template <class E>
std::optional<std::string> actor_name(const E& e, bool sniderman) {
    if constexpr (std::is_same_v<E, events::Move>) {
        return sniderman ? e.player : std::optional<std::string>(e.by);
    } else {
        return e.by;
    }
}

}  // namespace

SteadyTime Room::now() const {
    return state_.time().now();
}

// A fresh clock for the game as it starts (called by restore before the events are replayed): a
// correspondence clock runs at once for the first seat to act; nobody is connected yet.
void Room::reset_clock() {
    const auto t = now();
    clock_ = GameClock(time_control_);
    clock_.set_by_player(variant_ == core::VariantId::sniderman);
    clock_.start(acting_seat(), t);
    clock_history_.clear();
    if (clock_.timed() && !match_) {
        clock_history_.push_back(clock_.reading(t));
    }
    abort_deadline_.reset();
    for (int seat = 0; seat < 2; ++seat) {
        const bool here = online(record_.seats[static_cast<std::size_t>(seat)]);
        gone_since_[static_cast<std::size_t>(seat)] =
            here ? std::nullopt : std::optional<SteadyTime>(t);
    }
}

std::optional<int> Room::acting_seat() const {
    if (result_) {
        return std::nullopt;
    }
    if (match_) {
        switch (match_->phase()) {
            case core::sniderman::MatchPhase::naming:
                return match_->namer();
            case core::sniderman::MatchPhase::choosing:
                return match_->chooser();
            case core::sniderman::MatchPhase::playing:
                return match_->to_move_player();
            case core::sniderman::MatchPhase::finished:
                return std::nullopt;
        }
        return std::nullopt;
    }
    if (!game_ || game_->outcome()) {
        return std::nullopt;
    }
    return game_->to_move() == core::Side::first ? 0 : 1;
}

void Room::stamp_action(RoomEvent& event, int seat, int lag_ms) {
    if (!clock_.timed()) {
        return;
    }
    const auto action = clock_.after_action(seat, acting_seat(), now(), lag_ms);
    std::visit(
        [&](auto& e) {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, events::Move> ||
                          std::is_same_v<E, events::ObjectNamed> ||
                          std::is_same_v<E, events::SideChosen>) {
                e.clock = action.reading;
                e.lag_ms = action.lag_credited;
            }
        },
        event);
}

void Room::apply_clock(const RoomEvent& event) {
    const auto t = now();
    std::visit(
        [&](const auto& e) {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, events::Move> ||
                          std::is_same_v<E, events::ObjectNamed> ||
                          std::is_same_v<E, events::SideChosen>) {
                const auto seat = seat_from_name(actor_name(e, match_.has_value()).value_or(""));
                if (!seat) {
                    return;
                }
                clock_.on_action(*seat, e.clock, e.lag_ms, t);
                if constexpr (std::is_same_v<E, events::Move>) {
                    if (clock_.timed() && !match_) {
                        clock_history_.push_back(clock_.reading(t));
                    }
                }
                update_abort_deadline();
            } else if constexpr (std::is_same_v<E, events::GameOver>) {
                clock_.set(e.clock ? *e.clock : clock_.reading(t, true), t);
                abort_deadline_.reset();
            } else if constexpr (std::is_same_v<E, events::MoreTime>) {
                clock_.set(e.clock, t);
            } else if constexpr (std::is_same_v<E, events::Takeback>) {
                if (e.clock) {
                    clock_.set(*e.clock, t);
                }
                update_abort_deadline();
            }
        },
        event);
}

void Room::update_abort_deadline() {
    if (result_ || !time_control_.real_time() || clock_.both_acted()) {
        abort_deadline_.reset();
        return;
    }
    abort_deadline_ = now() + first_move_window;
}

// Arms the timer for the next moment the clocks decide something (a flag, a first move's window);
// the check then runs on the room's strand.
void Room::schedule_clock() {
    std::optional<SteadyTime> due;
    if (!result_ && !busy_) {
        due = clock_.flag_time();
        if (abort_deadline_ && (!due || *abort_deadline_ < *due)) {
            due = abort_deadline_;
        }
    }
    if (!due) {
        clock_timer_.cancel();
        return;
    }
    clock_timer_.expires_after(std::max(std::chrono::steady_clock::duration::zero(), *due - now()));
    clock_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        auto self = weak.lock();
        if (ec || !self) {
            return;
        }
        guarded(
            "room", [&] { return "room " + self->id() + ": clock"; }, [&] { self->check_clock(); });
    });
}

bool Room::clock_due() const {
    if (result_ || busy_) {
        return false;
    }
    const auto t = now();
    return clock_.flagged(t).has_value() || (abort_deadline_ && t >= *abort_deadline_);
}

void Room::check_clock() {
    if (result_ || busy_) {
        return;
    }
    const auto t = now();
    if (const auto flagged = clock_.flagged(t)) {
        component_logger("room")->info("game {}: {} ran out of time", id(), seat_name(*flagged));
        end_game({seat_name(1 - *flagged), "timeout"});
        commit(Actor{}, protocol::Request{});
        return;
    }
    if (abort_deadline_ && t >= *abort_deadline_) {
        component_logger("room")->info("game {}: no first move in time, aborted", id());
        end_game({std::nullopt, "aborted"});
        commit(Actor{}, protocol::Request{});
        return;
    }
    schedule_clock();
}

void Room::abort_request(const Actor& actor, const protocol::Request& request, int /*seat*/) {
    if (result_) {
        fail(actor, request, ErrorCode::game_over, "the game is over");
        return;
    }
    if (clock_.both_acted()) {
        fail(actor, request, ErrorCode::wrong_phase,
             "a game can be aborted only until both players have moved");
        return;
    }
    end_game({std::nullopt, "aborted"});
    commit(actor, request);
}

void Room::claim(const Actor& actor, const protocol::Request& request, int seat) {
    if (result_) {
        fail(actor, request, ErrorCode::game_over, "the game is over");
        return;
    }
    if (time_control_.kind == protocol::ClockKind::correspondence) {
        fail(actor, request, ErrorCode::not_supported,
             "in correspondence the time for each move decides, not presence");
        return;
    }
    if (!clock_.both_acted()) {
        fail(actor, request, ErrorCode::wrong_phase,
             "the game has not started yet: abort it instead");
        return;
    }
    const int opponent = 1 - seat;
    const auto wait = claim_in(opponent);
    if (!wait) {
        fail(actor, request, ErrorCode::claim_too_early,
             seat_names_[static_cast<std::size_t>(opponent)] + " is connected");
        return;
    }
    if (*wait > 0) {
        fail(actor, request, ErrorCode::claim_too_early,
             "you can claim in " + std::to_string((*wait + 999) / 1000) + " s");
        return;
    }
    const bool victory = request.type == RequestType::claim_victory;
    end_game({victory ? std::optional<std::string>(seat_name(seat)) : std::nullopt, "abandoned"});
    commit(actor, request);
}

void Room::more_time(const Actor& actor, const protocol::Request& request, int seat) {
    if (result_) {
        fail(actor, request, ErrorCode::game_over, "the game is over");
        return;
    }
    if (!time_control_.real_time()) {
        fail(actor, request, ErrorCode::not_supported, "only real-time games have more time");
        return;
    }
    auto clock = clock_.reading(now());
    clock.left[static_cast<std::size_t>(1 - seat)] += moretime_ms;
    emit(events::MoreTime{seat_name(seat), moretime_ms, clock});
    commit(actor, request);
}

std::optional<std::int64_t> Room::claim_in(int seat) const {
    const auto& since = gone_since_[static_cast<std::size_t>(seat)];
    if (result_ || !since || time_control_.kind == protocol::ClockKind::correspondence) {
        return std::nullopt;
    }
    const auto grace = time_control_.real_time() ? gone_grace(time_control_)
                                                 : std::chrono::milliseconds(max_gone_grace);
    return std::max<std::int64_t>(0, grace.count() - ms_until(*since, now()));
}

std::optional<int> Room::seat_lag(int seat) const {
    std::optional<int> best;
    for (const auto& [client_id, watcher] : watchers_) {
        if (watcher.player_id == record_.seats[static_cast<std::size_t>(seat)] &&
            watcher.lag_ms > 0 && !watcher.client.expired()) {
            best = best ? std::min(*best, watcher.lag_ms) : watcher.lag_ms;
        }
    }
    return best;
}

json Room::clock_fields() const {
    const auto t = now();
    const bool abort_pending = abort_deadline_ && !result_;
    return {
        {"time_control", protocol::time_control_json(time_control_)},
        {"clock", clock_.timed() ? events::clock_json(clock_.reading(t)) : json(nullptr)},
        {"abort_in", abort_pending ? json(std::max<std::int64_t>(0, ms_until(t, *abort_deadline_)))
                                   : json(nullptr)}};
}

}  // namespace server
