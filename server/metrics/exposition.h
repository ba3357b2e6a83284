#pragma once
// GET /metrics: the registry (metrics.h), the figures read when scraped and the process's own, in
// the Prometheus text exposition format 0.0.4 (docs/operations.md lists every metric).
#include <cstddef>
#include <string>

#include "server/metrics/metrics.h"
#include "server/metrics/process_stats.h"

namespace server {

// What the server reads from its state when scraped.
struct LiveFigures {
    std::size_t connections = 0;      // open WebSockets
    std::size_t rooms_in_memory = 0;  // rooms loaded, finished ones included
    std::size_t games_active = 0;     // unfinished games in memory
    bool draining = false;
    bool ready = false;               // GET /readyz answers 200
    std::size_t bot_jobs_queued = 0;  // computer moves waiting for a bot thread
};

inline constexpr const char* prometheus_content_type = "text/plain; version=0.0.4; charset=utf-8";

std::string prometheus_text(const Metrics& registry, const LiveFigures& live,
                            const ProcessStats& process);

}  // namespace server
