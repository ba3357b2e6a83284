#include "server/game/secrets.h"

#include <cassert>
#include <cstdlib>
#include <vector>

#include <sodium.h>

namespace server {

namespace {

// libsodium's initialisation result, computed once (sodium_init is thread-safe).
bool sodium_ready() {
    static const bool ready = sodium_init() >= 0;
    return ready;
}

// Every function here needs the library; without a random source nothing safe can be made.
void require_sodium() {
    if (!sodium_ready()) {
        std::abort();
    }
}

std::string to_hex(const unsigned char* bytes, std::size_t size) {
    std::string hex(size * 2 + 1, '\0');
    sodium_bin2hex(hex.data(), hex.size(), bytes, size);
    hex.pop_back();  // sodium_bin2hex writes a terminating NUL
    return hex;
}

}  // namespace

core::Status init_secrets() {
    if (!sodium_ready()) {
        return core::make_error("libsodium could not start (no random source?)");
    }
    return core::ok_status();
}

std::string sha256_hex(std::string_view data) {
    require_sodium();
    unsigned char digest[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(data.data()), data.size());
    return to_hex(digest, sizeof digest);
}

bool same_secret(std::string_view a, std::string_view b) {
    return a.size() == b.size() && (a.empty() || sodium_memcmp(a.data(), b.data(), a.size()) == 0);
}

std::string random_hex(std::size_t bytes) {
    require_sodium();
    if (bytes == 0) {
        return {};  // (an empty buffer's data() may be null, which randombytes_buf must not get)
    }
    std::vector<unsigned char> buffer(bytes);
    randombytes_buf(buffer.data(), buffer.size());
    return to_hex(buffer.data(), buffer.size());
}

std::string random_id(std::string_view prefix) {
    return std::string(prefix) + random_hex(id_random_bytes);
}

std::string new_token() {
    return random_hex(token_random_bytes);
}

std::uint64_t random_u64() {
    require_sodium();
    std::uint64_t value = 0;
    randombytes_buf(&value, sizeof value);
    return value;
}

std::uint32_t random_below(std::uint32_t bound) {
    assert(bound > 0);
    require_sodium();
    return randombytes_uniform(bound);
}

}  // namespace server
