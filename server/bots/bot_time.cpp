#include "server/bots/bot_time.h"

#include <algorithm>
#include <array>

namespace server {

namespace {

// Levels 1..8, in milliseconds: the higher levels search deeper, so they get more of it.
constexpr std::array<int, 8> level_times_ms = {100, 150, 250, 400, 600, 850, 1150, 1500};

}  // namespace

std::chrono::milliseconds level_move_time(int level) {
    const int index = std::clamp(level, 1, static_cast<int>(level_times_ms.size())) - 1;
    return std::chrono::milliseconds(level_times_ms[static_cast<std::size_t>(index)]);
}

std::chrono::milliseconds bot_think_time(std::chrono::milliseconds level_time,
                                         std::optional<std::int64_t> left_ms,
                                         std::int64_t increment_ms) {
    if (!left_ms) {
        return std::max(level_time, min_bot_think);
    }
    const std::int64_t budget = std::max<std::int64_t>(0, *left_ms) / 30 + increment_ms * 3 / 4;
    const std::int64_t capped = std::min<std::int64_t>(budget, level_time.count());
    return std::chrono::milliseconds(std::max<std::int64_t>(capped, min_bot_think.count()));
}

std::chrono::milliseconds busy_think_time(std::chrono::milliseconds planned, std::size_t waiting,
                                          std::size_t threads) {
    if (waiting == 0 || threads == 0 || planned <= min_bot_think) {
        return planned;
    }
    const auto shared = planned.count() * static_cast<std::int64_t>(threads) /
                        static_cast<std::int64_t>(threads + waiting);
    return std::chrono::milliseconds(std::max<std::int64_t>(shared, min_bot_think.count()));
}

}  // namespace server
