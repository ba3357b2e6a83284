// Time deciding in a room: the timer set for the next moment the clocks or the absence rules can
// end the game, and what it decides when it fires.
#include "server/game/room.h"

#include "server/game/server_state.h"
#include "server/log.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
namespace events = protocol::events;

void Room::schedule_clock() {
    if (lost()) {
        return;
    }
    auto due = busy_ ? std::nullopt : next_deadline(game_);
    const auto consider = [&due](std::optional<ServerTime> at) {
        if (at && (!due || *at < *due)) {
            due = at;
        }
    };
    if (!busy_) {
        const auto gone = absence();
        consider(absence_deadline(game_, gone));
        if (!lobby_away_ && !finished() && gone[0] && gone[1]) {
            consider(std::max(*gone[0], *gone[1]) + lobby_away_after);
        }
    }
    if (!due) {
        clock_timer_.cancel();
        return;
    }
    clock_timer_.expires_after(std::max(std::chrono::milliseconds::zero(), *due - now()));
    clock_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        auto self = weak.lock();
        if (ec || !self) {
            return;
        }
        guarded(
            "room", [&] { return "room " + self->id() + ": clock"; }, [&] { self->check_clock(); });
    });
}

void Room::check_clock() {
    if (busy_ || lost()) {
        return;
    }
    refund_outages();
    const auto t = now();
    auto ending = decide_time(game_, t);
    if (ending.empty()) {
        ending = decide_absence(game_, absence(), t);
    }
    if (ending.empty()) {
        update_lobby_away();
        schedule_clock();
        return;
    }
    end_by_time(std::move(ending));
}

GoneSince Room::absence() const {
    auto gone = gone_since_;
    if (bot_seat_) {
        const auto bot = static_cast<std::size_t>(*bot_seat_);
        gone[bot] = gone[1 - bot];
    }
    return gone;
}

bool Room::away_from_lobby(ServerTime t) const {
    const auto gone = absence();
    return gone[0] && gone[1] && t - std::max(*gone[0], *gone[1]) >= lobby_away_after;
}

void Room::update_lobby_away() {
    const bool away = away_from_lobby(now());
    if (away != lobby_away_) {
        lobby_away_ = away;
        publish_summary();
    }
}

void Room::end_by_time(std::vector<RoomEvent> ending) {
    const auto& over = std::get<events::GameOver>(ending.front());
    component_logger("room")->info("game {}: ended by time or absence: {}, winner {}", id(),
                                   over.result.reason, over.result.winner.value_or("none"));
    commit(std::move(ending), Actor{}, nullptr);
}

}  // namespace server
