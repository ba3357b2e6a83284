// parse_schedule (arena_schedule.h): an operator's schedule file.
#include "server/tournament/arena_schedule.h"

#include <set>
#include <variant>

#include <nlohmann/json.hpp>

#include "protocol/json_reader.h"
#include "protocol/time_control.h"

namespace server::tournament {

namespace {

using nlohmann::json;

const std::set<std::string> entry_keys = {"name",  "variant",     "rules", "clock", "minutes",
                                          "rated", "berserkable", "every", "at",    "lead_minutes"};

// "HH:MM" (24 hours) as minutes after midnight, or -1.
int time_of_day(const std::string& text) {
    if (text.size() != 5 || text[2] != ':') {
        return -1;
    }
    for (const int i : {0, 1, 3, 4}) {
        if (text[i] < '0' || text[i] > '9') {
            return -1;
        }
    }
    const int hours = (text[0] - '0') * 10 + (text[1] - '0');
    const int minutes = (text[3] - '0') * 10 + (text[4] - '0');
    return hours < 24 && minutes < 60 ? hours * 60 + minutes : -1;
}

bool optional_boolean(protocol::FieldReader& r, const json& object, const char* key,
                      bool otherwise) {
    return object.contains(key) ? r.boolean(key) : otherwise;
}

// One entry of "arenas"; an error names the field.
core::Expected<ScheduleEntry> read_entry(const json& object) {
    if (!object.is_object()) {
        return core::make_error("an entry must be a JSON object");
    }
    for (const auto& [key, value] : object.items()) {
        if (!entry_keys.count(key)) {
            return core::make_error("`" + key + "` is not a field of an entry");
        }
    }
    protocol::FieldReader r(object);
    ScheduleEntry entry;
    entry.name = r.string("name");
    const auto variant = r.string("variant");
    if (!r.error()) {
        if (auto id = core::parse_variant(variant)) {
            entry.variant = *id;
        } else {
            r.fail_with("`variant` must be chessence, chesica or sniderman, not `" + variant + "`");
        }
    }
    if (object.contains("rules") && !r.error()) {
        const auto rules = r.string("rules");
        if (auto set = core::parse_rule_set(rules)) {
            entry.rules = *set;
        } else if (!r.error()) {
            r.fail_with("`rules` must be house or strict");
        }
    }
    if (const json* clock = r.present("clock"); clock && !r.error()) {
        auto control = protocol::read_time_control(clock);
        if (const auto* error = std::get_if<protocol::ProtocolError>(&control)) {
            r.fail_with("`clock`: " + error->message);
        } else {
            entry.clock = std::get<protocol::TimeControl>(control);
        }
    }
    if (auto minutes = r.whole("minutes", 20, 180, "a whole number of minutes from 20 to 180")) {
        entry.minutes = static_cast<int>(*minutes);
    }
    entry.rated = optional_boolean(r, object, "rated", true);
    entry.berserkable = optional_boolean(r, object, "berserkable", true);
    if (const json* every = r.present("every"); every && !r.error()) {
        if (every->is_string() && every->get<std::string>() == "hourly") {
            entry.every.kind = Recurrence::hourly;
        } else if (every->is_string() && every->get<std::string>() == "daily") {
            entry.every.kind = Recurrence::daily;
            const auto at = object.contains("at") ? r.string("at") : std::string();
            entry.every.at_minute = time_of_day(at);
            if (entry.every.at_minute < 0 && !r.error()) {
                r.fail_with("a daily entry needs `at`: the time of day in UTC as \"HH:MM\"");
            }
        } else if (every->is_number_integer()) {
            entry.every.kind = Recurrence::every_minutes;
            const auto minutes = every->get<std::int64_t>();
            entry.every.minutes =
                minutes > 0 && minutes < 1'000'000 ? static_cast<int>(minutes) : -1;
        } else {
            r.fail_with("`every` must be \"hourly\", \"daily\" or a number of minutes");
        }
        if (entry.every.kind != Recurrence::daily && object.contains("at") && !r.error()) {
            r.fail_with("`at` belongs to a daily entry only");
        }
    }
    if (object.contains("lead_minutes")) {
        if (auto lead = r.whole("lead_minutes", 1, 1440, "a whole number from 1 to 1440")) {
            entry.lead_minutes = static_cast<int>(*lead);
        }
    }
    if (r.error()) {
        return core::make_error(*r.error());
    }
    if (auto checked = check_entry(entry); !checked) {
        return core::make_error(checked.error());
    }
    return entry;
}

}  // namespace

core::Expected<ArenaSchedule> parse_schedule(std::string_view text) {
    const auto document = json::parse(text, nullptr, false);
    if (document.is_discarded()) {
        return core::make_error("not JSON");
    }
    if (!document.is_object() || !document.contains("arenas") || !document["arenas"].is_array()) {
        return core::make_error("must be a JSON object with an array `arenas`");
    }
    for (const auto& [key, value] : document.items()) {
        if (key != "arenas") {
            return core::make_error("`" + key + "` is not a field of a schedule (only `arenas`)");
        }
    }
    ArenaSchedule schedule;
    const auto& arenas = document["arenas"];
    for (std::size_t i = 0; i < arenas.size(); ++i) {
        auto entry = read_entry(arenas[i]);
        if (!entry) {
            std::string where = "arenas[" + std::to_string(i) + "]";
            if (arenas[i].is_object() && arenas[i].contains("name") &&
                arenas[i]["name"].is_string()) {
                where += " (" + arenas[i]["name"].get<std::string>() + ")";
            }
            return core::make_error(where + ": " + entry.error());
        }
        schedule.push_back(std::move(*entry));
    }
    if (auto checked = check_schedule(schedule); !checked) {
        return core::make_error(checked.error());
    }
    return schedule;
}

}  // namespace server::tournament
