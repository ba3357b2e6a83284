#pragma once
// What chessence-load measures: latency samples with percentiles, and the server's CPU time and
// resident memory, read from its GET /metrics (process_cpu_seconds_total,
// process_resident_memory_bytes) or, for a server without one (the Node relay), from
// /proc/<pid>/stat of a local process.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/load/connection.h"

namespace load {

class Latencies {
public:
    void add(std::chrono::steady_clock::duration elapsed) {
        samples_.push_back(std::chrono::duration<double, std::milli>(elapsed).count());
    }
    std::size_t count() const { return samples_.size(); }
    // The p-th percentile (0..100) in milliseconds, nearest rank; 0 without samples.
    double percentile(double p);

private:
    std::vector<double> samples_;
    bool sorted_ = false;
};

struct ServerFigures {
    double cpu_seconds = 0;
    double resident_bytes = 0;
};

// Reads the figures from `metrics_target` (GET on host:port) or, when `pid` is set, from /proc;
// empty when neither answers.
std::optional<ServerFigures> read_server(const Target& metrics_target, std::optional<int> pid);

}  // namespace load
