#pragma once
// The stored form of a Swiss (docs/tournaments.md, "Stored form"), like the arena's
// (arena_json.h): its settings and each of its events as one JSON object, read back through the
// same types. Only what happened is kept, never what apply derives (sheets, standings). Times are
// milliseconds since the Unix epoch, sides "first" / "second".
#include <string>
#include <string_view>

#include "core/expected.h"
#include "server/tournament/swiss.h"
#include "server/tournament/swiss_state.h"

namespace server::tournament {

// The wire name of the event's kind ("joined", "round_paired", …).
std::string_view swiss_event_kind(const SwissEvent& event);

// {"kind": …, the event's own fields}, as compact JSON text with its keys sorted.
std::string encode_swiss_event(const SwissEvent& event);
// Reads an event in its stored form. Unknown fields are ignored; text that is not a JSON object,
// an unknown kind, a missing or mistyped field is an error naming it.
core::Expected<SwissEvent> decode_swiss_event(std::string_view text);

// The settings: {"starts_at", "rounds", "round_interval_ms", "clock" (the protocol's clock
// object), "variant", "rules", "rated", "bots_allowed"}.
std::string encode_swiss_config(const SwissConfig& config);
// Reads the settings back; an error names the field. It checks the form, not the limits
// (check_config).
core::Expected<SwissConfig> decode_swiss_config(std::string_view text);

}  // namespace server::tournament
