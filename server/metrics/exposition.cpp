#include "server/metrics/exposition.h"

#include <cmath>
#include <cstdio>
#include <string_view>
#include <utility>

#include "protocol/version.h"

namespace server {

namespace {

// A sample value as Prometheus reads it (integers without a fraction, +Inf spelt so).
std::string number(double value) {
    if (std::isinf(value)) {
        return value > 0 ? "+Inf" : "-Inf";
    }
    char text[64];
    if (value == std::floor(value) && std::fabs(value) < 1e15) {
        std::snprintf(text, sizeof text, "%.0f", value);
    } else {
        std::snprintf(text, sizeof text, "%.9g", value);
    }
    return text;
}

class Writer {
public:
    // The # HELP and # TYPE lines of a family.
    void family(std::string_view name, std::string_view type, std::string_view help) {
        out_.append("# HELP ").append(name).append(" ").append(help).append("\n");
        out_.append("# TYPE ").append(name).append(" ").append(type).append("\n");
    }
    void sample(std::string_view name, double value, std::string_view labels = {}) {
        out_.append(name);
        if (!labels.empty()) {
            out_.append("{").append(labels).append("}");
        }
        out_.append(" ").append(number(value)).append("\n");
    }
    void single(std::string_view name, std::string_view type, std::string_view help, double value) {
        family(name, type, help);
        sample(name, value);
    }
    void histogram(std::string_view name, std::string_view help, const Histogram& histogram) {
        const auto shot = histogram.snapshot();
        family(name, "histogram", help);
        const std::string bucket = std::string(name) + "_bucket";
        for (std::size_t i = 0; i < shot.bounds.size(); ++i) {
            sample(bucket, static_cast<double>(shot.cumulative[i]),
                   "le=\"" + number(shot.bounds[i]) + "\"");
        }
        sample(bucket, static_cast<double>(shot.count), "le=\"+Inf\"");
        sample(std::string(name) + "_sum", shot.sum);
        sample(std::string(name) + "_count", static_cast<double>(shot.count));
    }
    std::string take() { return std::move(out_); }

private:
    std::string out_;
};

// Cluster mode's families (docs/operations.md, "Cluster mode").
void cluster_families(Writer& out, const ClusterFigures& cluster) {
    out.single("chessence_leases_held", "gauge", "Game leases this node holds (cluster mode).",
               static_cast<double>(cluster.leases_held));
    out.single("chessence_lease_renewal_failures_total", "counter",
               "Lease renewal rounds that failed: Redis did not answer, or this node could not "
               "commit and renewed no lease.",
               static_cast<double>(cluster.lease_renewal_failures));
    out.single("chessence_leases_lost_total", "counter",
               "Leases this node lost: expired unrenewed, or taken by another node.",
               static_cast<double>(cluster.leases_lost));
    out.single("chessence_relay_records_queued", "gauge",
               "Relay records (requests, frames, notes, lobby records) waiting to be published to "
               "other nodes.",
               static_cast<double>(cluster.relay_queued));
    out.family("chessence_relay_records_dropped_total", "counter",
               "Relay records never published, by reason.");
    for (const auto& [reason, value] :
         {std::pair{"outbox_full", cluster.relay_dropped_outbox_full},
          std::pair{"publish_failed", cluster.relay_dropped_publish_failed},
          std::pair{"nobody_listening", cluster.relay_dropped_nobody_listening}}) {
        out.sample("chessence_relay_records_dropped_total", static_cast<double>(value),
                   "reason=\"" + std::string(reason) + "\"");
    }
    out.single("chessence_pubsub_reconnects_total", "counter",
               "Times the pub/sub subscriber connection to Redis was lost and restored.",
               static_cast<double>(cluster.pubsub_reconnects));
    out.single("chessence_relay_remote_clients", "gauge",
               "Clients of other nodes in this node's rooms (games this node owns).",
               static_cast<double>(cluster.remote_clients));
    out.single("chessence_relay_relayed_clients", "gauge",
               "Clients of this node whose requests are relayed to games other nodes own.",
               static_cast<double>(cluster.relayed_clients));
}

}  // namespace

std::string prometheus_text(const Metrics& registry, const LiveFigures& live,
                            const ProcessStats& process) {
    Writer out;
    out.family("chessence_build_info", "gauge", "The server's version (always 1).");
    const std::string software = protocol::server_software();  // "chessence-server/0.1.0"
    out.sample("chessence_build_info", 1,
               "version=\"" + software.substr(software.find('/') + 1) + "\"");
    out.single("chessence_connections", "gauge", "Open WebSocket connections.",
               static_cast<double>(live.connections));
    out.single("chessence_connections_accepted_total", "counter",
               "WebSocket connections accepted since the start.",
               static_cast<double>(registry.connections_accepted.value()));
    out.family("chessence_refusals_total", "counter",
               "Connections and HTTP requests turned away, by reason.");
    for (std::size_t i = 0; i < refusal_count; ++i) {
        out.sample("chessence_refusals_total", static_cast<double>(registry.refusals[i].value()),
                   "reason=\"" + std::string(refusal_name(static_cast<Refusal>(i))) + "\"");
    }
    out.family("chessence_errors_total", "counter", "Error frames sent to clients, by code.");
    for (int i = 0; i < protocol::error_code_count; ++i) {
        const auto code = static_cast<protocol::ErrorCode>(i);
        out.sample("chessence_errors_total",
                   static_cast<double>(registry.errors[static_cast<std::size_t>(i)].value()),
                   "code=\"" + std::string(protocol::error_code_name(code)) + "\"");
    }
    out.single("chessence_rooms_in_memory", "gauge", "Game rooms held in memory.",
               static_cast<double>(live.rooms_in_memory));
    out.single("chessence_games_active", "gauge", "Unfinished games in memory.",
               static_cast<double>(live.games_active));
    out.single("chessence_moves_total", "counter",
               "Moves committed since the start (rate() gives moves per second).",
               static_cast<double>(registry.moves.value()));
    out.histogram("chessence_move_seconds",
                  "From a move's frame read to its event handed to every watcher (the commit "
                  "included).",
                  registry.move_seconds);
    out.histogram("chessence_store_commit_seconds",
                  "From a batch handed to the store to its outcome (durable or refused).",
                  registry.commit_seconds);
    out.histogram("chessence_store_group_batches",
                  "Batches written in one transaction by the group commit.",
                  registry.commit_group_batches);
    out.single("chessence_queue_drops_total", "counter",
               "Clients disconnected because they fell too many frames behind.",
               static_cast<double>(registry.queue_drops.value()));
    out.single("chessence_accept_failures_total", "counter",
               "Connections the listener could not accept (out of descriptors or memory, or "
               "aborted before they were accepted).",
               static_cast<double>(registry.accept_failures.value()));
    out.single("chessence_memory_returns_total", "counter",
               "Times the heap's free pages were returned to the system (malloc_trim).",
               static_cast<double>(registry.memory_returns.value()));
    out.single("chessence_memory_returned_bytes_total", "counter",
               "Resident bytes those returns gave back to the system.",
               static_cast<double>(registry.memory_returned_bytes.value()));
    out.single("chessence_bot_jobs_queued", "gauge",
               "Computer moves waiting for a bot thread (--bot-queue at most).",
               static_cast<double>(live.bot_jobs_queued));
    out.single("chessence_bot_moves_total", "counter",
               "Moves the computer players made (Sniderman: objects named and sides chosen too).",
               static_cast<double>(registry.bot_moves.value()));
    out.histogram("chessence_bot_think_seconds", "How long a computer player thought for a move.",
                  registry.bot_think_seconds);
    out.single("chessence_draining", "gauge",
               "1 while the server is shutting down (GET /readyz answers 503).",
               live.draining ? 1 : 0);
    out.single("chessence_ready", "gauge",
               "1 while GET /readyz answers 200: not draining, the store can be written and read, "
               "and in cluster mode Redis answers.",
               live.ready ? 1 : 0);
    if (live.cluster) {
        cluster_families(out, *live.cluster);
    }
    const auto optional = [&](const char* name, const char* type, const char* help,
                              const std::optional<double>& value) {
        if (value) {
            out.single(name, type, help, *value);
        }
    };
    optional("process_cpu_seconds_total", "counter", "Total user and system CPU time in seconds.",
             process.cpu_seconds);
    optional("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
             process.resident_bytes);
    optional("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.",
             process.virtual_bytes);
    optional("process_start_time_seconds", "gauge",
             "Start time of the process since the Unix epoch in seconds.",
             process.start_time_seconds);
    optional("process_open_fds", "gauge", "Number of open file descriptors.", process.open_fds);
    optional("process_max_fds", "gauge", "Maximum number of open file descriptors.",
             process.max_fds);
    return out.take();
}

}  // namespace server
