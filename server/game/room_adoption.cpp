#include "server/game/room_adoption.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>

#include "server/cluster/leases.h"
#include "server/game/room.h"
#include "server/game/room_directory.h"
#include "server/game/server_state.h"
#include "server/log.h"

namespace server {

namespace {

const std::shared_ptr<spdlog::logger>& adoption_log() {
    return component_logger("cluster");
}

// A random generator for one thread's use.
std::mt19937_64& adoption_random() {
    thread_local std::mt19937_64 generator{std::random_device{}()};
    return generator;
}

}  // namespace

std::shared_ptr<RoomAdoption> RoomAdoption::make(ServerState& state, Options options) {
    return std::shared_ptr<RoomAdoption>(new RoomAdoption(state, std::move(options)));
}

RoomAdoption::RoomAdoption(ServerState& state, Options options)
    : state_(state), options_(std::move(options)), timer_(state.io()) {}

void RoomAdoption::start() {
    std::lock_guard lock(mutex_);
    if (!stopped_ && !running_) {
        arm();
    }
}

void RoomAdoption::stop() {
    std::unique_lock lock(mutex_);
    stopped_ = true;
    timer_.cancel();
    idle_.wait(lock, [this] { return !running_; });
}

bool RoomAdoption::stopped() const {
    std::lock_guard lock(mutex_);
    return stopped_;
}

void RoomAdoption::arm() {
    const auto period = std::max(options_.period, std::chrono::milliseconds(2));
    std::uniform_int_distribution<std::int64_t> pick(period.count() / 2, period.count());
    timer_.expires_after(std::chrono::milliseconds(pick(adoption_random())));
    // Weak: the timer's handler does not keep this alive past its owner (stop() then ends it).
    timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        if (auto self = weak.lock(); self && !ec) {
            self->on_timer();
        }
    });
}

void RoomAdoption::on_timer() {
    std::lock_guard lock(mutex_);
    if (stopped_ || running_) {
        return;
    }
    running_ = true;
    if (!state_.blocking().run([self = shared_from_this()] { self->sweep_and_rearm(); })) {
        // The pool is full (or stopped): the next period tries again.
        running_ = false;
        arm();
    }
}

void RoomAdoption::sweep_and_rearm() {
    auto adopted = sweep();
    std::lock_guard lock(mutex_);
    if (!adopted && !failing_) {
        adoption_log()->warn("adoption sweep: nothing adopted, retrying every ~{} ms: {}",
                             options_.period.count(), adopted.error());
        failing_ = true;
    } else if (adopted && failing_) {
        adoption_log()->info("adoption sweep works again");
        failing_ = false;
    }
    running_ = false;
    idle_.notify_all();
    if (!stopped_) {
        arm();
    }
}

core::Expected<std::vector<std::string>> RoomAdoption::sweep() {
    std::vector<std::string> adopted;
    auto* leases = state_.leases();
    if (!leases || stopped() || state_.stopping()) {
        return adopted;  // not in cluster mode, or going away: nothing to take
    }
    if (options_.healthy) {
        if (auto fit = options_.healthy(); !fit) {
            return core::make_error("this node takes no game: " + fit.error());
        }
    }
    auto games = state_.store().unfinished_games();
    if (!games) {
        return core::make_error("cannot list the unfinished games: " + games.error());
    }
    std::vector<std::string> elsewhere;
    for (const auto& game : *games) {
        if (!state_.rooms().loaded(game.id)) {
            elsewhere.push_back(game.id);
        }
    }
    auto orphans = leases->unleased(elsewhere);
    if (!orphans) {
        return core::make_error(orphans.error());
    }
    std::shuffle(orphans->begin(), orphans->end(), adoption_random());
    if (orphans->size() > options_.max_per_sweep) {
        orphans->resize(options_.max_per_sweep);
    }
    for (const auto& id : *orphans) {
        if (stopped() || state_.stopping()) {
            break;
        }
        auto room = state_.rooms().room(id);
        if (!room) {
            if (owner_named_in(room.error()).empty()) {
                adoption_log()->warn("game {}: not adopted: {}", id, room.error());
            }  // else another node took it first: it has an owner
            continue;
        }
        if (!*room) {
            continue;  // gone from the store since it was listed
        }
        if ((*room)->finished()) {
            // It ended elsewhere since it was listed: not kept here (nor its lease).
            state_.rooms().release(id);
            continue;
        }
        adoption_log()->info("game {}: adopted, its lease had run out", id);
        adopted.push_back(id);
    }
    return adopted;
}

}  // namespace server
