#pragma once
// The stored form of a round robin (docs/tournaments.md, "Round robin"): its settings and each
// of its events as one JSON object, written here and read back through the same types. Only what
// happened is kept, never what apply derives from it (the schedule, the standings). Times are
// milliseconds since the Unix epoch, sides "first" / "second".
#include <string>
#include <string_view>

#include "core/expected.h"
#include "server/tournament/roundrobin.h"
#include "server/tournament/roundrobin_state.h"

namespace server::tournament {

// The wire name of the event's kind ("joined", "started", "forfeited", …).
std::string_view roundrobin_event_kind(const RoundRobinEvent& event);

// {"kind": …, the event's own fields}, as compact JSON text with its keys sorted.
std::string encode_roundrobin_event(const RoundRobinEvent& event);
// Reads an event in its stored form. Fields it does not know are ignored; text that is not a
// JSON object, an unknown kind, a missing or mistyped field is an error naming it.
core::Expected<RoundRobinEvent> decode_roundrobin_event(std::string_view text);

// The settings: {"starts_at", "double_round", "game_deadline_ms", "clock" (the protocol's clock
// object), "variant", "rules", "rated", "bots_allowed", "max_players"}.
std::string encode_roundrobin_config(const RoundRobinConfig& config);
// Reads the settings back; an error names the field. It checks the form, not the limits
// (check_config).
core::Expected<RoundRobinConfig> decode_roundrobin_config(std::string_view text);

}  // namespace server::tournament
