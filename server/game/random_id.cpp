#include "server/game/random_id.h"

#include <random>

namespace server {

std::uint64_t random_u64() {
    thread_local std::random_device device;
    return (std::uint64_t(device()) << 32) | device();
}

std::string random_hex(std::size_t bytes) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(bytes * 2);
    std::uint64_t pool = 0;
    for (std::size_t i = 0; i < bytes; ++i) {
        if (i % 8 == 0) {
            pool = random_u64();
        }
        const auto byte = static_cast<unsigned>(pool & 0xff);
        pool >>= 8;
        hex.push_back(digits[byte >> 4]);
        hex.push_back(digits[byte & 0xf]);
    }
    return hex;
}

std::string random_id(std::string_view prefix) {
    return std::string(prefix) + random_hex(6);
}

}  // namespace server
