#include "core/sniderman/explain.h"

#include "core/sniderman/sniderman_game.h"

namespace core::sniderman {

namespace {

std::string colour_name(Colour c) {
    return c == Colour::white ? "White" : "Black";
}

// "a Black knight"
std::string piece_name(PieceCode p) {
    static constexpr std::string_view kinds[] = {"", "king", "queen", "rook", "bishop", "knight"};
    return "a " + colour_name(colour_of(p)) + " " +
           std::string(kinds[static_cast<std::size_t>(kind_of(p))]);
}

std::string square_colour(Square s) {
    return is_red(s) ? "a red square" : "a dark square";
}

std::string verdict(bool odd) {
    return odd ? "ODD wins." : "EVEN wins.";
}

// "3 pieces are left", "1 White piece is left"
std::string left(int count, std::string_view what) {
    const std::string noun = std::string(what) + (count == 1 ? "piece is" : "pieces are");
    return std::to_string(count) + " " + noun + " left";
}

std::string parity(int count) {
    return count % 2 == 1 ? "an odd number" : "an even number";
}

}  // namespace

std::string explain_round(Object object, const Position& end, const CaptureHistory& h) {
    const bool odd = odd_wins(object, end, h);
    const std::string last =
        h.captures >= 1 ? piece_name(h.last) + " on " + square_name(h.last_square) : "";
    const std::string none = "No piece was captured, so ";
    const std::string fewer = "Fewer than two pieces were captured, so ";
    switch (object) {
        case Object::last_captured_white:
            if (h.captures == 0) {
                return none + verdict(odd);
            }
            return "The last piece captured was " + last + ": " +
                   (odd ? "White, so " : "not White, so ") + verdict(odd);
        case Object::last_captured_on_red:
            if (h.captures == 0) {
                return none + verdict(odd);
            }
            return "The last piece captured was " + last + ", " + square_colour(h.last_square) +
                   ", so " + verdict(odd);
        case Object::last_captured_on_edge_rank:
            if (h.captures == 0) {
                return none + verdict(odd);
            }
            return "The last piece captured was " + last + ", on rank " +
                   std::to_string(rank_of(h.last_square) + 1) + ", so " + verdict(odd);
        case Object::king_captured_by_even:
            return odd ? "A king was captured by one of EVEN's moves, so " + verdict(odd)
                       : "No king was captured by one of EVEN's moves, so " + verdict(odd);
        case Object::odd_pieces_left: {
            const int n = end.piece_count();
            return left(n, "") + " on the board, " + parity(n) + ", so " + verdict(odd);
        }
        case Object::odd_white_pieces_left: {
            const int n = square_count_of(end.by_colour[0]);
            return left(n, "White ") + ", " + parity(n) + ", so " + verdict(odd);
        }
        case Object::one_colour_left: {
            const int white = square_count_of(end.by_colour[0]);
            const int black = square_count_of(end.by_colour[1]);
            if (white == 0 || black == 0) {
                return "Only " + colour_name(white == 0 ? Colour::black : Colour::white) +
                       " pieces are left, so " + verdict(odd);
            }
            return left(white, "White ") + " and " + left(black, "Black ") + ": both colours, so " +
                   verdict(odd);
        }
        case Object::last_two_landings_same_colour:
            if (h.captures < 2) {
                return fewer + verdict(odd);
            }
            return "The last two captures landed on " + square_name(h.previous_square) + " (" +
                   square_colour(h.previous_square) + ") and " + square_name(h.last_square) + " (" +
                   square_colour(h.last_square) + "), so " + verdict(odd);
        case Object::last_two_captured_same_colour:
            if (h.captures < 2) {
                return fewer + verdict(odd);
            }
            return "The last two pieces captured were " + piece_name(h.previous) + " and then " +
                   piece_name(h.last) + (odd ? ": the same colour" : ": different colours") +
                   ", so " + verdict(odd);
        case Object::last_captured_outranks_previous:
            if (h.captures < 2) {
                return fewer + verdict(odd);
            }
            return "The last piece captured, " + piece_name(h.last) +
                   (odd ? ", outranks " : ", does not outrank ") + "the one captured before it, " +
                   piece_name(h.previous) + ", so " + verdict(odd);
    }
    return verdict(odd);
}

Expected<std::string> explain_round(std::string_view start, int object,
                                    const std::vector<std::string>& moves) {
    const auto parsed = to_object(object);
    if (!parsed) {
        return make_error("no object " + std::to_string(object));
    }
    const auto position = parse_position(start);
    if (!position) {
        return make_error(position.error());
    }
    SnidermanGame round(*position, object);
    for (const auto& move : moves) {
        if (auto played = round.play(move); !played) {
            return make_error(played.error());
        }
    }
    if (round.running()) {
        return make_error("the round is not over");
    }
    return explain_round(*parsed, round.position(), round.history());
}

}  // namespace core::sniderman
