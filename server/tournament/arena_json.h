#pragma once
// The stored form of an arena (docs/tournaments.md, "Stored form"): its settings and each of its
// events as one JSON object, written here and read back through the same types by the actor's
// restore. Only what happened is kept, never what apply derives from it (standings, sheets,
// sides). Times are milliseconds since the Unix epoch, sides "first" / "second" (an event does not
// know the variant that would name them).
#include <string>
#include <string_view>

#include "core/expected.h"
#include "server/tournament/arena.h"
#include "server/tournament/arena_state.h"

namespace server::tournament {

// The wire name of the event's kind ("joined", "paired", …).
std::string_view arena_event_kind(const ArenaEvent& event);

// {"kind": …, the event's own fields}, as compact JSON text with its keys sorted.
std::string encode_event(const ArenaEvent& event);
// Reads an event in its stored form. Fields it does not know are ignored (an older, fatter form
// reads too); text that is not a JSON object, an unknown kind, a missing or mistyped field is an
// error naming it.
core::Expected<ArenaEvent> decode_event(std::string_view text);

// The tournament's settings: {"starts_at", "duration_ms", "clock" (the protocol's clock object),
// "berserkable", "variant", "rated"}.
std::string encode_config(const ArenaConfig& config);
// Reads the settings back; an error names the field. It checks the form, not the arena's limits
// (check_config), so that settings stored under older limits still read.
core::Expected<ArenaConfig> decode_config(std::string_view text);

}  // namespace server::tournament
