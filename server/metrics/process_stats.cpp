#include "server/metrics/process_stats.h"

#include <sys/resource.h>
#include <unistd.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace server {

namespace {

// The fields of /proc/self/stat after the command name (which may hold spaces and brackets):
// fields[0] is the state, field n of proc(5) is fields[n - 3].
std::vector<std::string> stat_fields() {
    std::ifstream in("/proc/self/stat");
    std::string line;
    if (!std::getline(in, line)) {
        return {};
    }
    const auto close = line.rfind(')');
    if (close == std::string::npos) {
        return {};
    }
    std::istringstream rest(line.substr(close + 1));
    std::vector<std::string> fields;
    for (std::string field; rest >> field;) {
        fields.push_back(field);
    }
    return fields;
}

std::optional<double> boot_time_seconds() {
    std::ifstream in("/proc/stat");
    for (std::string key; in >> key;) {
        if (key == "btime") {
            double seconds = 0;
            if (in >> seconds) {
                return seconds;
            }
            return std::nullopt;
        }
        in.ignore(1 << 20, '\n');
    }
    return std::nullopt;
}

}  // namespace

ProcessStats read_process_stats() {
    ProcessStats stats;
    const auto fields = stat_fields();
    const long ticks = sysconf(_SC_CLK_TCK);
    const long page = sysconf(_SC_PAGESIZE);
    // proc(5): utime 14, stime 15, starttime 22, vsize 23, rss 24.
    if (fields.size() >= 22 && ticks > 0 && page > 0)
        try {
            const auto number = [&](int n) {
                return std::stod(fields[static_cast<std::size_t>(n - 3)]);
            };
            stats.cpu_seconds = (number(14) + number(15)) / static_cast<double>(ticks);
            stats.virtual_bytes = number(23);
            stats.resident_bytes = number(24) * static_cast<double>(page);
            if (const auto boot = boot_time_seconds()) {
                stats.start_time_seconds = *boot + number(22) / static_cast<double>(ticks);
            }
        } catch (const std::exception&) {
            stats = ProcessStats{};  // a line we cannot read: no figure rather than a wrong one
        }
    std::error_code ec;
    std::size_t fds = 0;
    for (std::filesystem::directory_iterator it("/proc/self/fd", ec), end; !ec && it != end;
         it.increment(ec)) {
        ++fds;
    }
    if (!ec) {
        stats.open_fds = static_cast<double>(fds);
    }
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        stats.max_fds = static_cast<double>(limit.rlim_cur);
    }
    return stats;
}

}  // namespace server
