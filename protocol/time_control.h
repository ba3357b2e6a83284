#pragma once
// A game's time control (docs/protocol.md, "Clocks"): unlimited, real time (initial time plus an
// increment per move) or correspondence (days per move). One value with its three written forms:
// the protocol's `clock` object, the record's TimeControl tag (also how the store keeps it), and
// the words the lobby shows.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/expected.h"
#include "protocol/errors.h"

namespace protocol {

enum class ClockKind : std::uint8_t { unlimited, real_time, correspondence };

// Limits of a real-time control, in seconds, and the correspondence choices (days per move).
inline constexpr int max_initial_seconds = 10800;
inline constexpr int max_increment_seconds = 180;
// initial + 40 × increment: the length of a 40-move game for one player; at least this.
inline constexpr int min_estimated_seconds = 15;
inline constexpr int correspondence_days[] = {1, 2, 3, 5, 7, 10, 14};

struct TimeControl {
    ClockKind kind = ClockKind::unlimited;
    int initial_seconds = 0;    // real time
    int increment_seconds = 0;  // real time
    int days = 0;               // correspondence: time for each move

    bool timed() const { return kind != ClockKind::unlimited; }
    bool real_time() const { return kind == ClockKind::real_time; }
    // What a player's clock holds at the start (real time), or for each move (correspondence).
    std::int64_t initial_ms() const;
    std::int64_t increment_ms() const;
    // initial + 40 × increment in seconds: how long one player's 40 moves may take (real time).
    std::int64_t estimated_seconds() const;

    friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

// The protocol's `clock` field: absent or null (unlimited), {"initial": s, "increment": s} or
// {"days": N}. An error is `bad_field` with a message that states the allowed range.
std::variant<TimeControl, ProtocolError> read_time_control(const nlohmann::json* value);
// The same object (null when unlimited).
nlohmann::json time_control_json(const TimeControl& control);

// The TimeControl tag of a record, which is also how the store keeps it: "-" unlimited,
// "<initial>+<increment>" in seconds (PGN), "1/<seconds>" for correspondence (one move per period,
// PGN's moves/seconds form; the period restarts with every move).
std::string time_control_text(const TimeControl& control);
// Reads that text back ("" counts as unlimited); an error names what is wrong.
core::Expected<TimeControl> parse_time_control(std::string_view text);

}  // namespace protocol
