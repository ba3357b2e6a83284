#include "core/chessence/result.h"

namespace core::chessence {

std::string_view ending_name(Ending ending) {
    switch (ending) {
        case Ending::none:
            return "";
        case Ending::checkmate:
            return "checkmate";
        case Ending::stalemate:
            return "stalemate";
        case Ending::threefold_repetition:
            return "threefold_repetition";
        case Ending::hundred_ply_rule:
            return "hundred_ply_rule";
    }
    return "";
}

Ending ending_of(const Position& p, bool has_legal_move, int occurrences, RuleSet rules) {
    if (!has_legal_move) {
        return in_check(p) ? Ending::checkmate : Ending::stalemate;
    }
    if (rules == RuleSet::strict) {
        return Ending::none;
    }
    if (occurrences >= repetition_limit) {
        return Ending::threefold_repetition;
    }
    if (p.quiet_plies >= quiet_ply_limit) {
        return Ending::hundred_ply_rule;
    }
    return Ending::none;
}

std::optional<Colour> winner_of(const Position& p, Ending ending) {
    if (ending == Ending::checkmate || ending == Ending::stalemate) {
        return other(p.side_to_move);
    }
    return std::nullopt;
}

}  // namespace core::chessence
