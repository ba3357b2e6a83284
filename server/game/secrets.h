#pragma once
// Hashing and randomness for identities and secrets, from libsodium: SHA-256 of guest tokens, and
// ids, tokens and coin tosses drawn from the operating system's random source (getrandom).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/expected.h"

namespace server {

// Random bytes in a public id (128 bits) and in a secret token (256 bits).
inline constexpr std::size_t id_random_bytes = 16;
inline constexpr std::size_t token_random_bytes = 32;

// Starts libsodium; Server::start calls it once. Safe to call again and from any thread; every
// function below calls it too, so tests and tools may use them directly. An error means the
// system has no usable random source.
core::Status init_secrets();

// The SHA-256 digest of `data` as 64 lower-case hex digits.
std::string sha256_hex(std::string_view data);
// `bytes` random bytes as lower-case hex.
std::string random_hex(std::size_t bytes);
// Whether two secrets are equal, in time that does not depend on where they differ.
bool same_secret(std::string_view a, std::string_view b);
// `prefix` + 32 hex digits (128 random bits): "p_…" players, "g_…" games, "s_…" seeks.
std::string random_id(std::string_view prefix);
// A new secret token: 64 hex digits (256 random bits).
std::string new_token();
std::uint64_t random_u64();
// A uniformly random number in [0, bound); bound > 0.
std::uint32_t random_below(std::uint32_t bound);

}  // namespace server
