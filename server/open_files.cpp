#include "server/open_files.h"

#include <algorithm>

#include <sys/resource.h>

#include "server/limits.h"

namespace server {

OpenFileLimit fit_open_file_limit(int connections_total) {
    OpenFileLimit result;
    result.needed = static_cast<std::uint64_t>(std::max(connections_total, 0)) + open_files_margin;
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) {
        return result;
    }
    const auto as_count = [](rlim_t value) {
        return value == RLIM_INFINITY ? UINT64_MAX : static_cast<std::uint64_t>(value);
    };
    result.soft = as_count(limit.rlim_cur);
    result.hard = as_count(limit.rlim_max);
    if (result.soft >= result.needed) {
        return result;
    }
    const auto wanted = std::min(result.needed, result.hard);
    rlimit raised = limit;
    raised.rlim_cur = static_cast<rlim_t>(wanted);
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) {
        result.soft = wanted;
        result.raised = true;
    }
    return result;
}

}  // namespace server
