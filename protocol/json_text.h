#pragma once
// JSON text written straight into a string, for the frames on a move's road (no tree): byte for
// byte what to_text (messages.h) would write for the same values.
#include <string>
#include <string_view>
#include <vector>

namespace protocol {

// Appends `text` as a JSON string, escaped as to_text escapes it (anything outside ASCII goes
// through the JSON library, so that invalid UTF-8 is replaced the same way).
void append_json_string(std::string& out, std::string_view text);
// Appends `items` as a JSON array of strings.
void append_string_array(std::string& out, const std::vector<std::string>& items);

}  // namespace protocol
