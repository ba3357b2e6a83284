#include "server/net/http_operations.h"

#include <nlohmann/json.hpp>

#include "server/cluster/leases.h"
#include "server/game/relay.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/metrics/exposition.h"

namespace server {

namespace {

// In cluster mode, from the atomics the lease, relay and pub/sub threads keep (no Redis call on
// this, an I/O thread); else none.
std::optional<ClusterFigures> cluster_figures(ServerState& state) {
    auto* leases = state.leases();
    auto* relay = state.relay();
    if (!leases && !relay) {
        return std::nullopt;
    }
    ClusterFigures cluster;
    if (leases) {
        const auto stats = leases->stats();
        cluster.leases_held = stats.held;
        cluster.lease_renewal_failures = stats.renewal_failures;
        cluster.leases_lost = stats.lost;
    }
    if (relay) {
        const auto stats = relay->stats();
        cluster.relay_queued = stats.queued;
        cluster.relay_dropped_outbox_full = stats.dropped_outbox_full;
        cluster.relay_dropped_publish_failed = stats.dropped_publish_failed;
        cluster.relay_dropped_nobody_listening = stats.dropped_nobody_listening;
        cluster.pubsub_reconnects = stats.pubsub_reconnects;
        cluster.remote_clients = stats.remote_clients;
        cluster.relayed_clients = stats.relayed_clients;
    }
    return cluster;
}

HttpReply metrics_reply(ServerState& state, std::string_view authorization) {
    const auto& token = state.limits().metrics_token;
    constexpr std::string_view bearer = "Bearer ";
    if (!token.empty() && (authorization.substr(0, bearer.size()) != bearer ||
                           !same_secret(authorization.substr(bearer.size()), token))) {
        return json_reply(401,
                          R"({"error":"send the metrics token: Authorization: Bearer <token>"})");
    }
    LiveFigures live;
    live.connections = state.sessions().count();
    live.rooms_in_memory = state.room_count();
    live.games_active = state.games_active();
    live.draining = state.stopping();
    live.ready = !live.draining && state.readiness().state().ready();
    live.bot_jobs_queued = state.bots().queued();
    live.cluster = cluster_figures(state);
    return HttpReply{200, prometheus_content_type,
                     prometheus_text(metrics(), live, read_process_stats())};
}

// From what the readiness thread last found (readiness.h): no store or Redis call here, on the
// I/O thread.
HttpReply ready_reply(ServerState& state) {
    if (state.stopping()) {
        return json_reply(503, R"({"status":"draining"})");
    }
    const auto readiness = state.readiness().state();
    if (!readiness.ready()) {
        const nlohmann::json body = {{"status", Readiness::name(readiness.status)},
                                     {"error", readiness.error}};
        return json_reply(503, body.dump());
    }
    return json_reply(200, R"({"status":"ready"})");
}

}  // namespace

std::optional<HttpReply> serve_operations(ServerState& state, std::string_view target,
                                          std::string_view authorization) {
    const std::string_view path = target.substr(0, target.find('?'));
    if (path == "/metrics") {
        return metrics_reply(state, authorization);
    }
    if (path == "/readyz") {
        return ready_reply(state);
    }
    return std::nullopt;
}

}  // namespace server
