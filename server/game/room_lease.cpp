// Cluster mode (issue 27): a room acts for its game only while this node holds the game's lease.
// The lease's fence goes first into every batch (CheckFence), so a node that lost the lease
// cannot commit into the game even if it has not noticed yet; once it notices, the room stops for
// good and its clients reconnect to the game's new owner.
#include <boost/asio/post.hpp>

#include "server/cluster/leases.h"
#include "server/game/room.h"
#include "server/game/server_state.h"
#include "server/log.h"

namespace server {

Room::~Room() {
    if (fence_ > 0 && !lost_flag_.load()) {
        if (auto* leases = state_.leases()) {
            // A Redis round trip, never made where the last reference happens to drop (an I/O
            // thread, a strand): the blocking pool gives the lease back. When it cannot (full, or
            // stopped at shutdown), the lease runs out by itself within its ttl.
            const bool queued = state_.blocking().run(
                [leases, game_id = id(), fence = fence_] { leases->release(game_id, fence); });
            if (!queued) {
                component_logger("room")->info(
                    "game {}: its lease is left to run out (the blocking pool took no job)", id());
            }
        }
    }
}

void Room::post_lease_lost(std::int64_t fence) {
    boost::asio::post(strand_, [self = shared_from_this(), fence] {
        if (fence == self->fence_ && !self->lost()) {
            self->lose("its lease was lost");
        }
    });
}

bool Room::owns() const {
    if (fence_ == 0) {
        return true;
    }
    auto* leases = state_.leases();
    return leases && leases->holds(id(), fence_);
}

void Room::lose(const std::string& why) {
    if (lost_flag_.exchange(true)) {
        return;
    }
    component_logger("room")->warn("game {}: this node stops acting for it: {}", id(), why);
    // Should the game come back to this node with nobody having played it meanwhile, the time
    // until then is refunded (restore): the game could not move from now (or since its store
    // failed).
    state_.outages().stopped(id(), outage_since_.value_or(now()), game_.version, fence_);
    clock_timer_.cancel();
    bot_timer_.cancel();
    const auto frame =
        error_frame(protocol::ErrorCode::server_restarting, lost_room_text, nullptr, id());
    broadcast(frame);
    for (const auto& [client_id, watcher] : watchers_) {
        if (auto client = watcher.client.lock()) {
            client->watching(shared_from_this(), false);  // its requests look for the game again
        }
    }
    watchers_.clear();
    while (!waiting_.empty()) {
        auto [actor, request] = std::move(waiting_.front());
        waiting_.pop_front();
        refuse_lost(actor, request.id);
    }
    state_.forget_room(id(), this);
}

void Room::refuse_lost(const Actor& actor, const Json& request_id) {
    actor.send(
        error_frame(protocol::ErrorCode::server_restarting, lost_room_text, request_id, id()));
}

}  // namespace server
