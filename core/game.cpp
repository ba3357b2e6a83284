#include "core/game.h"

#include <algorithm>
#include <bit>
#include <cstdint>

#include "core/games.h"

namespace core {

Expected<std::unique_ptr<Game>> make_game(VariantId variant, const GameOptions& options) {
    switch (variant) {
        case VariantId::chessence:
            return chessence::make_game(options);
        case VariantId::chesica:
            return chesica::make_game(options);
        case VariantId::sniderman:
            return sniderman::make_game(options);
    }
    return make_error("unknown variant");
}

void sort_move_names(std::vector<std::string>& names) {
    constexpr std::size_t key_bytes = sizeof(std::uint64_t);
    if (std::any_of(names.begin(), names.end(),
                    [](const std::string& name) { return name.size() > key_bytes; })) {
        std::sort(names.begin(), names.end());
        return;
    }
    // The bytes big-endian, zero-padded: a shorter name that is a prefix of a longer one is
    // smaller, as in byte order (a name holds no zero byte: notation is printable).
    std::vector<std::uint64_t> keys;
    keys.reserve(names.size());
    for (const auto& name : names) {
        std::uint64_t key = 0;
        for (const char c : name) {
            key = key << 8 | static_cast<unsigned char>(c);
        }
        keys.push_back(name.empty() ? 0 : key << (8 * (key_bytes - name.size())));
    }
    std::sort(keys.begin(), keys.end());
    for (std::size_t n = 0; n < keys.size(); ++n) {
        const std::uint64_t key = keys[n];
        const std::size_t length = key == 0 ? 0 : key_bytes - std::countr_zero(key) / 8;
        names[n].resize(length);
        for (std::size_t i = 0; i < length; ++i) {
            names[n][i] = static_cast<char>(key >> (8 * (key_bytes - 1 - i)));
        }
    }
}

}  // namespace core
