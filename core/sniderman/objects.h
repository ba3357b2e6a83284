#pragma once
// The ten objects of RULES.md §3: what a round remembers of its captures, and who wins when it
// ends.
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/sniderman/position.h"

namespace core::sniderman {

// ODD wins if ..., otherwise EVEN wins.
enum class Object : std::uint8_t {
    last_captured_white = 1,
    last_captured_on_red = 2,
    last_captured_on_edge_rank = 3,
    king_captured_by_even = 4,
    odd_pieces_left = 5,
    odd_white_pieces_left = 6,
    one_colour_left = 7,
    last_two_landings_same_colour = 8,
    last_two_captured_same_colour = 9,
    last_captured_outranks_previous = 10,
};

constexpr int object_count = 10;

// The object numbered n (1..10), if any.
constexpr std::optional<Object> to_object(int n) {
    if (n < 1 || n > object_count) {
        return std::nullopt;
    }
    return static_cast<Object>(n);
}
constexpr int object_number(Object o) {
    return static_cast<int>(o);
}

// "ODD wins if the last piece captured is White"; "" outside 1..10.
std::string_view object_text(int object);

// What the objects need to know about the captures of a round so far (since its start position).
struct CaptureHistory {
    std::uint8_t captures = 0;      // how many captures, saturating at 2
    PieceCode last = no_piece;      // the last piece captured
    PieceCode previous = no_piece;  // the one captured before it
    std::uint8_t last_square = 0;   // where the last piece captured stood (= the last landing)
    std::uint8_t previous_square = 0;
    bool king_captured_by_even = false;

    // Records capture m of piece `captured`, played on ply number `ply`.
    void record(Move m, PieceCode captured, int ply) {
        previous = last;
        previous_square = last_square;
        last = captured;
        last_square = m.to;
        captures = static_cast<std::uint8_t>(captures < 2 ? captures + 1 : 2);
        if (ply % 2 == 0 && kind_of(captured) == Kind::king) {
            king_captured_by_even = true;
        }
    }
    friend bool operator==(const CaptureHistory&, const CaptureHistory&) = default;
};

// Whether ODD wins the round that ended in `end` after `history`. An object that needs one or two
// captures that did not happen is false (EVEN wins).
bool odd_wins(Object object, const Position& end, const CaptureHistory& history);

// The least part of `history` that, with the position, decides every continuation of the round
// under `object` while the round goes on (0..7); equal summaries give equal results. Objects 9
// and 10 look back one capture, and of it need only its colour or its rank.
constexpr std::uint8_t history_summary(Object object, const CaptureHistory& h) {
    if (h.captures == 0) {
        return 0;
    }
    switch (object) {
        case Object::king_captured_by_even:
            return h.king_captured_by_even ? 1 : 0;
        case Object::last_two_landings_same_colour:
            return static_cast<std::uint8_t>(1 + (is_red(h.last_square) ? 1 : 0));
        case Object::last_two_captured_same_colour:
            return static_cast<std::uint8_t>(1 + colour_index(colour_of(h.last)));
        case Object::last_captured_outranks_previous:
            return static_cast<std::uint8_t>(kind_of(h.last));
        default:
            return 0;
    }
}

}  // namespace core::sniderman
