#include "core/sniderman/objects.h"

#include <array>
#include <bit>

namespace core::sniderman {

std::string_view object_text(int object) {
    static constexpr std::array<std::string_view, object_count> texts = {
        "ODD wins if the last piece captured is White",
        "ODD wins if the last piece captured stood on a red square",
        "ODD wins if the last piece captured stood on rank 1 or rank 4",
        "ODD wins if a king (either) was captured by one of EVEN's moves",
        "ODD wins if an odd number of pieces is left on the board",
        "ODD wins if an odd number of White pieces is left",
        "ODD wins if all pieces left are of one colour (a single piece counts)",
        "ODD wins if the last two squares landed on have the same colour",
        "ODD wins if the last two pieces captured have the same colour",
        "ODD wins if the last piece captured outranks the one captured before it",
    };
    if (object < 1 || object > object_count) {
        return "";
    }
    return texts[static_cast<std::size_t>(object - 1)];
}

bool odd_wins(Object object, const Position& end, const CaptureHistory& h) {
    const bool one = h.captures >= 1;
    const bool two = h.captures >= 2;
    switch (object) {
        case Object::last_captured_white:
            return one && colour_of(h.last) == Colour::white;
        case Object::last_captured_on_red:
            return one && is_red(h.last_square);
        case Object::last_captured_on_edge_rank:
            return one && is_edge_rank(h.last_square);
        case Object::king_captured_by_even:
            return h.king_captured_by_even;
        case Object::odd_pieces_left:
            return end.piece_count() % 2 == 1;
        case Object::odd_white_pieces_left:
            return square_count_of(end.by_colour[0]) % 2 == 1;
        case Object::one_colour_left:
            return end.by_colour[0] == 0 || end.by_colour[1] == 0;
        case Object::last_two_landings_same_colour:
            return two && is_red(h.last_square) == is_red(h.previous_square);
        case Object::last_two_captured_same_colour:
            return two && colour_of(h.last) == colour_of(h.previous);
        case Object::last_captured_outranks_previous:
            return two && outranks(h.last, h.previous);
    }
    return false;
}

}  // namespace core::sniderman
