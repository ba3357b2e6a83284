#pragma once
// The arenas the server creates itself (issue 43, docs/tournaments.md "Scheduled arenas"): a
// schedule of recurring entries, and `due`, which says — as a pure function of the time and of
// the scheduled arenas already stored — which arenas to create now. Times are UTC milliseconds
// since the Unix epoch: no time zone, no daylight saving time.
//
// A scheduled arena is known by its schedule key, "<entry name>@<start ms>": the server stores it
// as the arena's name and start (TournamentRecord::name, starts_at, created_by ""), so the keys
// of the stored ones can be rebuilt after a restart and none is created twice.
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"
#include "core/variant.h"
#include "protocol/time_control.h"
#include "server/tournament/arena_state.h"

namespace server::tournament {

enum class Recurrence : std::uint8_t {
    hourly,         // on the hour
    daily,          // every day at at_minute (minutes after midnight UTC)
    every_minutes,  // every `minutes` minutes, counted from the Unix epoch (midnight UTC)
};

struct ScheduleEvery {
    Recurrence kind = Recurrence::hourly;
    int at_minute = 0;  // daily: 0..1439
    int minutes = 60;   // every_minutes
    friend bool operator==(const ScheduleEvery&, const ScheduleEvery&) = default;
};

// A scheduled arena is created this long before its start unless its entry says otherwise.
inline constexpr int default_lead_minutes = 60;
// At most this many arenas of one entry wait for their start at once (lead / period).
inline constexpr int max_waiting_per_entry = 24;
// A schedule has at most this many entries; an entry's name at most this many characters.
inline constexpr std::size_t max_schedule_entries = 100;
inline constexpr std::size_t max_entry_name = 64;

struct ScheduleEntry {
    std::string name;  // the arenas' name ("Hourly Chessence Arena"), unique in the schedule
    core::VariantId variant = core::VariantId::chessence;
    core::RuleSet rules = core::RuleSet::house;
    protocol::TimeControl clock;  // real time
    int minutes = 57;             // the arena's length
    bool rated = true;
    bool berserkable = true;
    ScheduleEvery every;
    int lead_minutes = default_lead_minutes;  // created (and joinable) this long before its start
    friend bool operator==(const ScheduleEntry&, const ScheduleEntry&) = default;
};

using ArenaSchedule = std::vector<ScheduleEntry>;

// An arena to create now.
struct DueArena {
    std::string key;  // schedule_key(name, start)
    std::string name;
    ArenaConfig config;  // config.starts_at is the exact start
    friend bool operator==(const DueArena&, const DueArena&) = default;
};

// The default: an hourly arena per game, on the hour, 57 minutes long (lichess's hourly), rated,
// berserk allowed — Chessence 3+2 (house rules), Chesica 3+2, Sniderman 5+3. Each is created an
// hour before its start, when the one before it starts: there is always one to join. (The daily
// Swiss per game comes with Swiss tournaments, issue 43 slice 4.)
ArenaSchedule default_schedule();

// "<name>@<start ms>".
std::string schedule_key(std::string_view name, ArenaTime start);

// Whether the entry makes arenas: a name, an arena's limits (check_config), a recurrence and
// lead in range. The error names the field.
core::Status check_entry(const ScheduleEntry& entry);
// Every entry checked, names unique, at most max_schedule_entries; the error names the entry.
core::Status check_schedule(const ArenaSchedule& schedule);

// The starts of `every` in (after, until], in order.
std::vector<ArenaTime> starts_between(const ScheduleEvery& every, ArenaTime after, ArenaTime until);

// The arenas to create at `now`: for each entry, every start in (now, now + lead] whose key is
// not in `existing` (the keys of the scheduled arenas already stored). A start that has come is
// never created. Ordered by start, then by the schedule's order.
std::vector<DueArena> due(const ArenaSchedule& schedule, ArenaTime now,
                          const std::set<std::string>& existing);

// Reads a schedule file's text: {"arenas": [entry, …]} where an entry is {"name", "variant",
// "rules"? (house), "clock": {"initial": s, "increment": s}, "minutes", "rated"? (true),
// "berserkable"? (true), "every": "hourly" | "daily" | minutes, "at": "HH:MM" (daily only),
// "lead_minutes"? (60)}. Unknown keys are refused (a misspelt key would be ignored silently
// otherwise); the error names the entry and the field. The result passes check_schedule.
core::Expected<ArenaSchedule> parse_schedule(std::string_view text);

}  // namespace server::tournament
