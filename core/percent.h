#pragma once
// %XX escapes, as URLs carry them (a request path or query on the server, a password in a Redis
// URL): decoded once, and a malformed escape is refused rather than passed on.
#include <optional>
#include <string>
#include <string_view>

namespace core {

// `text` with every %XX decoded (either case of hex digit); nothing when an escape is malformed.
std::optional<std::string> percent_decode(std::string_view text);

}  // namespace core
