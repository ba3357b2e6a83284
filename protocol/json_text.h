#pragma once
// JSON text written straight into a string, for the frames on a move's road (no tree): byte for
// byte what to_text (messages.h) would write for the same values. And the one text form of a
// time that frames carry (iso_utc).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace protocol {

// Appends `text` as a JSON string, escaped as to_text escapes it (anything outside ASCII goes
// through the JSON library, so that invalid UTF-8 is replaced the same way).
void append_json_string(std::string& out, std::string_view text);
// Appends `items` as a JSON array of strings.
void append_string_array(std::string& out, const std::vector<std::string>& items);

// A time (unix ms) as the protocol writes one in text: ISO 8601, UTC, to the second
// ("2026-11-27T20:00:00Z"), as chat lines and the HTTP API's dates carry it.
std::string iso_utc(std::int64_t unix_ms);

}  // namespace protocol
