#include "server/tournament/arena_schedule.h"

#include <algorithm>
#include <tuple>

#include "server/tournament/arena.h"

namespace server::tournament {

namespace {

constexpr std::int64_t minute_ms = 60'000;
constexpr std::int64_t hour_ms = 60 * minute_ms;
constexpr std::int64_t day_ms = 24 * hour_ms;
// An every_minutes entry recurs at least every 5 minutes and at most every week.
constexpr int min_every_minutes = 5;
constexpr int max_every_minutes = 7 * 24 * 60;

std::int64_t period_ms(const ScheduleEvery& every) {
    switch (every.kind) {
        case Recurrence::hourly:
            return hour_ms;
        case Recurrence::daily:
            return day_ms;
        case Recurrence::every_minutes:
            return static_cast<std::int64_t>(every.minutes) * minute_ms;
    }
    return hour_ms;
}

std::int64_t offset_ms(const ScheduleEvery& every) {
    return every.kind == Recurrence::daily ? static_cast<std::int64_t>(every.at_minute) * minute_ms
                                           : 0;
}

// Floor division (the times before the epoch, should a test give one).
std::int64_t start_floor_div(std::int64_t a, std::int64_t b) {
    const std::int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

ArenaConfig arena_config(const ScheduleEntry& entry, ArenaTime start) {
    ArenaConfig config;
    config.starts_at = start;
    config.duration_ms = static_cast<std::int64_t>(entry.minutes) * minute_ms;
    config.clock = entry.clock;
    config.berserkable = entry.berserkable;
    config.variant = entry.variant;
    config.rules = entry.rules;
    config.rated = entry.rated;
    return config;
}

}  // namespace

ArenaSchedule default_schedule() {
    auto hourly = [](std::string name, core::VariantId variant, int initial, int increment) {
        ScheduleEntry entry;
        entry.name = std::move(name);
        entry.variant = variant;
        entry.rules = core::RuleSet::house;
        entry.clock.kind = protocol::ClockKind::real_time;
        entry.clock.initial_seconds = initial;
        entry.clock.increment_seconds = increment;
        entry.minutes = 57;
        entry.every = ScheduleEvery{Recurrence::hourly, 0, 60};
        entry.lead_minutes = default_lead_minutes;
        return entry;
    };
    return {
        hourly("Hourly Chessence Arena", core::VariantId::chessence, 180, 2),
        hourly("Hourly Chesica Arena", core::VariantId::chesica, 180, 2),
        // Sniderman is slower per move: every move is a capture chosen over both colours towards
        // the round's object, and naming the object and choosing ODD/EVEN run on the clock too;
        // a round has at most 8 moves a player, so the base carries the game, not the increment.
        hourly("Hourly Sniderman Arena", core::VariantId::sniderman, 300, 3),
    };
}

std::string schedule_key(std::string_view name, ArenaTime start) {
    return std::string(name) + "@" + std::to_string(start);
}

core::Status check_entry(const ScheduleEntry& entry) {
    if (entry.name.empty() || entry.name.size() > max_entry_name) {
        return core::make_error("`name` must be 1 to " + std::to_string(max_entry_name) +
                                " characters");
    }
    if (auto checked = check_config(arena_config(entry, 0)); !checked) {
        return core::make_error(checked.error());
    }
    const auto& every = entry.every;
    if (every.kind == Recurrence::daily && (every.at_minute < 0 || every.at_minute >= 24 * 60)) {
        return core::make_error("`at` must be a time of day from 00:00 to 23:59");
    }
    if (every.kind == Recurrence::every_minutes &&
        (every.minutes < min_every_minutes || every.minutes > max_every_minutes)) {
        return core::make_error("`every` must be hourly, daily or a number of minutes from " +
                                std::to_string(min_every_minutes) + " to " +
                                std::to_string(max_every_minutes));
    }
    if (entry.lead_minutes < 1 || entry.lead_minutes > 24 * 60) {
        return core::make_error("`lead_minutes` must be from 1 to 1440");
    }
    const auto lead = static_cast<std::int64_t>(entry.lead_minutes) * minute_ms;
    const auto period = period_ms(every);
    if ((lead + period - 1) / period > max_waiting_per_entry) {
        return core::make_error("`lead_minutes` is too long for how often it recurs: at most " +
                                std::to_string(max_waiting_per_entry) +
                                " arenas of one entry may wait for their start");
    }
    return core::ok_status();
}

core::Status check_schedule(const ArenaSchedule& schedule) {
    if (schedule.size() > max_schedule_entries) {
        return core::make_error("a schedule has at most " + std::to_string(max_schedule_entries) +
                                " entries");
    }
    std::set<std::string> names;
    for (std::size_t i = 0; i < schedule.size(); ++i) {
        const auto& entry = schedule[i];
        const std::string where = "arenas[" + std::to_string(i) + "]" +
                                  (entry.name.empty() ? "" : " (" + entry.name + ")");
        if (auto checked = check_entry(entry); !checked) {
            return core::make_error(where + ": " + checked.error());
        }
        if (!names.insert(entry.name).second) {
            return core::make_error(where + ": another entry has the name `" + entry.name +
                                    "` (the name tells their arenas apart)");
        }
    }
    return core::ok_status();
}

std::vector<ArenaTime> starts_between(const ScheduleEvery& every, ArenaTime after,
                                      ArenaTime until) {
    std::vector<ArenaTime> starts;
    const auto period = period_ms(every);
    const auto offset = offset_ms(every);
    for (ArenaTime start = offset + (start_floor_div(after - offset, period) + 1) * period;
         start <= until; start += period) {
        starts.push_back(start);
    }
    return starts;
}

std::vector<DueArena> due(const ArenaSchedule& schedule, ArenaTime now,
                          const std::set<std::string>& existing) {
    std::vector<std::tuple<ArenaTime, std::size_t, DueArena>> found;
    for (std::size_t i = 0; i < schedule.size(); ++i) {
        const auto& entry = schedule[i];
        const auto lead = static_cast<std::int64_t>(entry.lead_minutes) * minute_ms;
        for (const auto start : starts_between(entry.every, now, now + lead)) {
            auto key = schedule_key(entry.name, start);
            if (existing.count(key)) {
                continue;
            }
            found.emplace_back(start, i,
                               DueArena{std::move(key), entry.name, arena_config(entry, start)});
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
        return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    std::vector<DueArena> arenas;
    arenas.reserve(found.size());
    for (auto& item : found) {
        arenas.push_back(std::move(std::get<2>(item)));
    }
    return arenas;
}

}  // namespace server::tournament
