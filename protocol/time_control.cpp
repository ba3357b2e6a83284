#include "protocol/time_control.h"

#include <algorithm>
#include <charconv>
#include <iterator>

namespace protocol {

using nlohmann::json;

namespace {

constexpr std::int64_t ms_per_second = 1000;
constexpr std::int64_t seconds_per_day = 86400;

ProtocolError bad(std::string message) {
    return ProtocolError{ErrorCode::bad_field, std::move(message)};
}

bool allowed_days(std::int64_t days) {
    return std::find(std::begin(correspondence_days), std::end(correspondence_days), days) !=
           std::end(correspondence_days);
}

std::string days_list() {
    return "1, 2, 3, 5, 7, 10 or 14";
}

// A whole number of seconds in [0, max] from `object[key]`, or an error naming the field.
std::variant<int, ProtocolError> seconds_field(const json& object, const char* key, int max) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number_integer()) {
        return bad(std::string("`clock.") + key + "` must be a whole number of seconds from 0 to " +
                   std::to_string(max));
    }
    const bool negative =
        it->is_number_integer() && !it->is_number_unsigned() && it->get<std::int64_t>() < 0;
    if (negative || it->get<std::uint64_t>() > static_cast<std::uint64_t>(max)) {
        return bad(std::string("`clock.") + key + "` must be from 0 to " + std::to_string(max) +
                   " seconds");
    }
    return static_cast<int>(it->get<std::int64_t>());
}

std::optional<std::int64_t> whole_number(std::string_view text) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 0) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

std::int64_t TimeControl::initial_ms() const {
    switch (kind) {
        case ClockKind::real_time:
            return initial_seconds * ms_per_second;
        case ClockKind::correspondence:
            return days * seconds_per_day * ms_per_second;
        case ClockKind::unlimited:
            break;
    }
    return 0;
}

std::int64_t TimeControl::increment_ms() const {
    return real_time() ? increment_seconds * ms_per_second : 0;
}

std::int64_t TimeControl::estimated_seconds() const {
    return real_time() ? initial_seconds + 40LL * increment_seconds : 0;
}

std::variant<TimeControl, ProtocolError> read_time_control(const json* value) {
    if (!value || value->is_null()) {
        return TimeControl{};
    }
    const std::string shape =
        "`clock` must be {\"initial\": seconds, \"increment\": seconds}, {\"days\": N} or null";
    if (!value->is_object()) {
        return bad(shape);
    }
    const bool has_days = value->contains("days");
    const bool has_real = value->contains("initial") || value->contains("increment");
    if (has_days == has_real) {
        return bad(shape);
    }
    TimeControl control;
    if (has_days) {
        const auto& days = (*value)["days"];
        if (!days.is_number_integer() || !allowed_days(days.get<std::int64_t>())) {
            return bad("`clock.days` must be " + days_list());
        }
        control.kind = ClockKind::correspondence;
        control.days = days.get<int>();
        return control;
    }
    auto initial = seconds_field(*value, "initial", max_initial_seconds);
    if (auto* error = std::get_if<ProtocolError>(&initial)) {
        return *error;
    }
    auto increment = seconds_field(*value, "increment", max_increment_seconds);
    if (auto* error = std::get_if<ProtocolError>(&increment)) {
        return *error;
    }
    control.kind = ClockKind::real_time;
    control.initial_seconds = std::get<int>(initial);
    control.increment_seconds = std::get<int>(increment);
    if (control.estimated_seconds() < min_estimated_seconds) {
        return bad("a real-time clock needs initial + 40 × increment of at least " +
                   std::to_string(min_estimated_seconds) +
                   " seconds (initial 0–10800 s, increment 0–180 s)");
    }
    return control;
}

json time_control_json(const TimeControl& control) {
    switch (control.kind) {
        case ClockKind::real_time:
            return {{"initial", control.initial_seconds}, {"increment", control.increment_seconds}};
        case ClockKind::correspondence:
            return {{"days", control.days}};
        case ClockKind::unlimited:
            break;
    }
    return nullptr;
}

std::string time_control_text(const TimeControl& control) {
    switch (control.kind) {
        case ClockKind::real_time:
            return std::to_string(control.initial_seconds) + "+" +
                   std::to_string(control.increment_seconds);
        case ClockKind::correspondence:
            return "1/" + std::to_string(control.days * seconds_per_day);
        case ClockKind::unlimited:
            break;
    }
    return "-";
}

core::Expected<TimeControl> parse_time_control(std::string_view text) {
    if (text.empty() || text == "-") {
        return TimeControl{};
    }
    const auto fail = [&] {
        return core::make_error("time control `" + std::string(text) +
                                "` is not -, <initial>+<increment> or 1/<seconds>");
    };
    TimeControl control;
    if (text.substr(0, 2) == "1/") {
        const auto seconds = whole_number(text.substr(2));
        if (!seconds || *seconds % seconds_per_day != 0 ||
            !allowed_days(*seconds / seconds_per_day)) {
            return fail();
        }
        control.kind = ClockKind::correspondence;
        control.days = static_cast<int>(*seconds / seconds_per_day);
        return control;
    }
    const auto plus = text.find('+');
    if (plus == std::string_view::npos) {
        return fail();
    }
    const auto initial = whole_number(text.substr(0, plus));
    const auto increment = whole_number(text.substr(plus + 1));
    if (!initial || !increment || *initial > max_initial_seconds ||
        *increment > max_increment_seconds) {
        return fail();
    }
    control.kind = ClockKind::real_time;
    control.initial_seconds = static_cast<int>(*initial);
    control.increment_seconds = static_cast<int>(*increment);
    return control;
}

}  // namespace protocol
