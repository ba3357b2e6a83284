#pragma once
// The three games, the two sides, and the two rule sets, named as the protocol and the CLI name them.
#include <cstdint>
#include <optional>
#include <string_view>

namespace core {

enum class VariantId : std::uint8_t { chessence, chesica, sniderman };

// The side that moves first (White, or ODD in Sniderman) and the side that moves second.
enum class Side : std::uint8_t { first, second };

// house: the server's draw rules are on (default); strict: only the rules of the sources.
enum class RuleSet : std::uint8_t { house, strict };

constexpr Side opposite(Side s) { return s == Side::first ? Side::second : Side::first; }

std::string_view variant_name(VariantId v);
std::optional<VariantId> parse_variant(std::string_view name);

// "white"/"black" for Chessence and Chesica, "odd"/"even" for Sniderman.
std::string_view side_name(VariantId v, Side s);
std::optional<Side> parse_side(VariantId v, std::string_view name);

std::string_view rule_set_name(RuleSet r);
std::optional<RuleSet> parse_rule_set(std::string_view name);

}  // namespace core
