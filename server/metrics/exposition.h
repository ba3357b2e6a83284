#pragma once
// GET /metrics: the registry (metrics.h), the figures read when scraped and the process's own, in
// the Prometheus text exposition format 0.0.4 (docs/operations.md lists every metric).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "server/metrics/metrics.h"
#include "server/metrics/process_stats.h"

namespace server {

// Cluster mode's figures (issue 42), read when scraped from the atomics the lease, relay and
// pub/sub threads keep (Leases::stats, Relay::stats): a scrape never waits for Redis.
struct ClusterFigures {
    std::size_t leases_held = 0;
    std::uint64_t lease_renewal_failures = 0;  // renewal rounds that failed
    std::uint64_t leases_lost = 0;
    std::size_t relay_queued = 0;  // records waiting to be published to other nodes
    std::uint64_t relay_dropped_outbox_full = 0;
    std::uint64_t relay_dropped_publish_failed = 0;
    std::uint64_t relay_dropped_nobody_listening = 0;
    std::uint64_t pubsub_reconnects = 0;
    std::size_t remote_clients = 0;   // other nodes' clients served here (this node owns)
    std::size_t relayed_clients = 0;  // this node's clients relayed to other owners
};

// What the server reads from its state when scraped.
struct LiveFigures {
    std::size_t connections = 0;      // open WebSockets
    std::size_t rooms_in_memory = 0;  // rooms loaded, finished ones included
    std::size_t games_active = 0;     // unfinished games in memory
    bool draining = false;
    bool ready = false;               // GET /readyz answers 200
    std::size_t bot_jobs_queued = 0;  // computer moves waiting for a bot thread
    // In cluster mode only; on a single node its families are absent.
    std::optional<ClusterFigures> cluster;
};

inline constexpr const char* prometheus_content_type = "text/plain; version=0.0.4; charset=utf-8";

std::string prometheus_text(const Metrics& registry, const LiveFigures& live,
                            const ProcessStats& process);

}  // namespace server
