#include "server/game/downtime.h"

#include <algorithm>

namespace server {

Downtime Downtime::from_runs(const std::vector<ServerRun>& runs, ServerTime now) {
    Downtime downtime;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto down = from_unix_ms(runs[i].alive_at);
        const auto up = i + 1 < runs.size() ? from_unix_ms(runs[i + 1].started_at) : now;
        if (up > down) {
            downtime.gaps_.emplace_back(down, up);
        }
    }
    return downtime;
}

std::chrono::milliseconds Downtime::between(ServerTime from, ServerTime to) const {
    std::chrono::milliseconds total{0};
    for (const auto& [down, up] : gaps_) {
        const auto start = std::max(from, down);
        const auto end = std::min(to, up);
        if (end > start) {
            total += end - start;
        }
    }
    return total;
}

}  // namespace server
