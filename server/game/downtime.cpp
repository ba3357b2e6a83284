#include "server/game/downtime.h"

#include <algorithm>
#include <optional>

namespace server {

Downtime Downtime::from_runs(const std::vector<ServerRun>& runs, ServerTime now) {
    Downtime downtime;
    // The latest moment some run so far was known alive; a run starting after it opens a gap.
    std::optional<ServerTime> alive_until;
    for (const auto& run : runs) {
        const auto started = from_unix_ms(run.started_at);
        if (alive_until && started > *alive_until) {
            downtime.gaps_.emplace_back(*alive_until, started);
        }
        const auto alive = from_unix_ms(std::max(run.alive_at, run.started_at));
        alive_until = alive_until ? std::max(*alive_until, alive) : alive;
    }
    if (alive_until && now > *alive_until) {
        downtime.gaps_.emplace_back(*alive_until, now);
    }
    return downtime;
}

Downtime Downtime::with_gap(ServerTime down, ServerTime up) const {
    Downtime merged;
    if (up <= down) {
        merged.gaps_ = gaps_;
        return merged;
    }
    auto gaps = gaps_;
    gaps.emplace_back(down, up);
    std::sort(gaps.begin(), gaps.end());
    for (const auto& gap : gaps) {
        if (!merged.gaps_.empty() && gap.first <= merged.gaps_.back().second) {
            merged.gaps_.back().second = std::max(merged.gaps_.back().second, gap.second);
        } else {
            merged.gaps_.push_back(gap);
        }
    }
    return merged;
}

Downtime Downtime::with(const Downtime& other) const {
    auto merged = *this;
    for (const auto& [down, up] : other.gaps_) {
        merged = merged.with_gap(down, up);
    }
    return merged;
}

Downtime Downtime::within(ServerTime from, ServerTime to) const {
    Downtime part;
    for (const auto& [down, up] : gaps_) {
        const auto start = std::max(from, down);
        const auto end = std::min(to, up);
        if (end > start) {
            part.gaps_.emplace_back(start, end);
        }
    }
    return part;
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
