// The time a room's game could not move though this node ran — the process paused, the store or
// Redis unreachable — refunded to its clocks like downtime (room.h, refund_outages).
#include "server/game/room.h"

#include "server/game/server_state.h"
#include "server/log.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
namespace events = protocol::events;

void Room::refund_outages() {
    auto& outages = state_.outages();
    const auto t = now();
    outages.look(std::chrono::steady_clock::now(), t);
    const auto pauses = outages.pause_count();
    if (!outage_since_ && pauses == pauses_seen_) {
        return;
    }
    Downtime fresh;
    if (pauses != pauses_seen_) {
        fresh = outages.pauses().within(refunded_until_, t);
        pauses_seen_ = pauses;
    }
    if (outage_since_) {
        const auto span = outage_span(t);
        fresh = fresh.with_gap(std::max(span.from, refunded_until_), span.until);
        if (span.over) {
            outage_since_.reset();
        }
    }
    // Each span once: the gaps refunded before end where these begin (refunded_until_).
    resume(game_, t, fresh);
    refunds_ = refunds_.with(fresh);
    refunded_until_ = t;
}

void Room::store_failed(ServerTime since) {
    if (!outage_since_ || since < *outage_since_) {
        outage_since_ = std::max(since, refunded_until_);
    }
    outage_seen_ = now();
}

Room::OutageSpan Room::outage_span(ServerTime t) const {
    const auto worked = state_.outages().store_worked_after(outage_seen_);
    OutageSpan span;
    span.from = outage_since_.value_or(t);
    span.until = worked ? std::min(t, *worked) : t;
    span.over = worked.has_value();
    return span;
}

}  // namespace server
