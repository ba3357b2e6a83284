#pragma once
// How a Chessence game ends: a player without a legal move loses (checkmate or stalemate); under
// the house rules a third occurrence of a position or 100 plies without capture or drop draw.
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/chessence/position.h"
#include "core/variant.h"

namespace core::chessence {

enum class Ending : std::uint8_t {
    none,
    checkmate,
    stalemate,
    threefold_repetition,
    hundred_ply_rule
};

constexpr int repetition_limit = 3;             // the third occurrence draws
constexpr std::uint32_t quiet_ply_limit = 100;  // plies without capture or drop that draw

// The reason as docs/protocol.md names it ("checkmate", ...); "" for none.
std::string_view ending_name(Ending ending);

// The ending reached in `p`, given whether its side to move has a legal move and how often `p` has
// occurred (this time included). No legal move wins over a draw rule on the same ply.
Ending ending_of(const Position& p, bool has_legal_move, int occurrences, RuleSet rules);

// The winner of an ending: the side not to move after checkmate or stalemate, none for a draw.
std::optional<Colour> winner_of(const Position& p, Ending ending);

}  // namespace core::chessence
