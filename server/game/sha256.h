#pragma once
// SHA-256 (FIPS 180-4) for hashing guest tokens before they are stored.
#include <string>
#include <string_view>

namespace server {

// The digest of `data` as 64 lower-case hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace server
