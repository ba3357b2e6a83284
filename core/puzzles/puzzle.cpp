#include "core/puzzles/puzzle.h"

#include <array>

namespace core::puzzles {

namespace {

constexpr std::uint64_t fnv_offset = 0xcbf29ce484222325ull;
constexpr std::uint64_t fnv_prime = 0x100000001b3ull;
constexpr int id_digits = 12;

std::uint64_t fnv1a(std::uint64_t hash, std::string_view text) {
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= fnv_prime;
    }
    return hash;
}

}  // namespace

std::string puzzle_id(VariantId game, RuleSet rules, std::string_view fen, int object) {
    std::uint64_t hash = fnv_offset;
    hash = fnv1a(hash, variant_name(game));
    hash = fnv1a(hash, "|");
    hash = fnv1a(hash, rule_set_name(rules));
    hash = fnv1a(hash, "|");
    hash = fnv1a(hash, fen);
    hash = fnv1a(hash, "|");
    hash = fnv1a(hash, std::to_string(object));
    constexpr std::array<char, 16> digits = {'0', '1', '2', '3', '4', '5', '6', '7',
                                             '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
    std::string id(id_digits, '0');
    for (int i = id_digits - 1; i >= 0; --i) {
        id[static_cast<std::size_t>(i)] = digits[hash & 0xF];
        hash >>= 4;
    }
    return id;
}

std::string duplicate_key(VariantId game, std::string_view fen, int object) {
    std::string_view position = fen;
    if (game != VariantId::sniderman) {
        // Drop "<plies> <move number>" from the end.
        for (int field = 0; field < 2; ++field) {
            const auto space = position.find_last_of(' ');
            if (space == std::string_view::npos) {
                break;
            }
            position = position.substr(0, space);
        }
    }
    return std::string(variant_name(game)) + "|" + std::string(position) + "|" +
           std::to_string(object);
}

}  // namespace core::puzzles
