#pragma once
// Unpredictable identifiers and secrets from the operating system's random source.
#include <cstdint>
#include <string>
#include <string_view>

namespace server {

// `bytes` random bytes as lower-case hex.
std::string random_hex(std::size_t bytes);
// prefix + 12 hex digits: "p_3f9a…" players, "g_…" games, "s_…" seeks.
std::string random_id(std::string_view prefix);
std::uint64_t random_u64();

}  // namespace server
