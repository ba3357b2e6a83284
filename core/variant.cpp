#include "core/variant.h"

namespace core {

std::string_view variant_name(VariantId v) {
    switch (v) {
        case VariantId::chessence:
            return "chessence";
        case VariantId::chesica:
            return "chesica";
        case VariantId::sniderman:
            return "sniderman";
    }
    return "unknown";
}

std::optional<VariantId> parse_variant(std::string_view name) {
    for (auto v : {VariantId::chessence, VariantId::chesica, VariantId::sniderman}) {
        if (variant_name(v) == name) {
            return v;
        }
    }
    return std::nullopt;
}

std::string_view side_name(VariantId v, Side s) {
    if (v == VariantId::sniderman) {
        return s == Side::first ? "odd" : "even";
    }
    return s == Side::first ? "white" : "black";
}

std::optional<Side> parse_side(VariantId v, std::string_view name) {
    for (auto s : {Side::first, Side::second}) {
        if (side_name(v, s) == name) {
            return s;
        }
    }
    return std::nullopt;
}

std::string_view rule_set_name(RuleSet r) { return r == RuleSet::strict ? "strict" : "house"; }

std::optional<RuleSet> parse_rule_set(std::string_view name) {
    if (name == "house") {
        return RuleSet::house;
    }
    if (name == "strict") {
        return RuleSet::strict;
    }
    return std::nullopt;
}

}  // namespace core
