#pragma once
// The process's own CPU time, memory and file descriptors, read from /proc/self on Linux: the
// standard process_* metrics of Prometheus client libraries. A figure that cannot be read is empty
// (and left out of /metrics) rather than zero.
#include <optional>

namespace server {

struct ProcessStats {
    std::optional<double> cpu_seconds;  // user + system
    std::optional<double> resident_bytes;
    std::optional<double> virtual_bytes;
    std::optional<double> start_time_seconds;  // since the Unix epoch
    std::optional<double> open_fds;
    std::optional<double> max_fds;
};

ProcessStats read_process_stats();

}  // namespace server
