#include "core/chessence/notation.h"

#include <optional>

#include "core/chessence/fen.h"
#include "core/chessence/movegen.h"
#include "core/utf8.h"

namespace core::chessence {

namespace {

// The square a two-character name denotes, if it is on the board (missing squares included).
std::optional<Square> parse_square(std::string_view text) {
    if (text.size() != 2 || text[0] < 'a' || text[0] >= 'a' + file_count || text[1] < '1' ||
        text[1] >= '1' + rank_count) {
        return std::nullopt;
    }
    return make_square(text[0] - 'a', text[1] - '1');
}

// The text in single quotes, for messages.
std::string quote(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    out += '\'';
    out += valid_utf8(text);
    out += '\'';
    return out;
}

struct Syntax {
    bool drop = false;
    bool capture_marked = false;  // written with `x`
    Square from = 0;
    Square to = 0;
};

Expected<Syntax> parse_syntax(std::string_view text) {
    const auto quoted = [text] { return quote(text); };  // for a message only: not on every move
    Syntax syntax;
    std::string_view destination;
    if (text.size() == 3 && text[0] == '@') {
        syntax.drop = true;
        destination = text.substr(1);
    } else if (text.size() == 5 && (text[2] == '-' || text[2] == 'x')) {
        const auto from = parse_square(text.substr(0, 2));
        if (!from) {
            return make_error(quoted() + ": '" + valid_utf8(utf8_span(text, 0, 2)) +
                              "' is not a square (files a-f, ranks 1-9)");
        }
        syntax.from = *from;
        syntax.capture_marked = text[2] == 'x';
        destination = text.substr(3);
    } else {
        return make_error(quoted() + " is not a move; write e3-e4, d2xb4 or @e1");
    }
    const auto to = parse_square(destination);
    if (!to) {
        return make_error(quoted() + ": '" + valid_utf8(destination) +
                          "' is not a square (files a-f, ranks 1-9)");
    }
    syntax.to = *to;
    if (!syntax.drop && is_missing(syntax.from)) {
        return make_error(quoted() + ": " + square_name(syntax.from) + " is a missing square");
    }
    if (is_missing(syntax.to)) {
        return make_error(quoted() + ": " + square_name(syntax.to) + " is a missing square");
    }
    return syntax;
}

// Why no legal move of `p` matches `syntax` (a move that is not in the legal list).
std::string why_illegal(const Position& p, const Syntax& syntax, const std::string& quoted) {
    const int us = index(p.side_to_move);
    if (syntax.drop) {
        if (p.reserve[us] == 0) {
            return quoted + ": no men left in reserve";
        }
        if ((home_squares[us] & bit(syntax.to)) == 0) {
            return quoted + ": drops go only to your own six starting squares";
        }
        if ((p.occupied() & bit(syntax.to)) != 0) {
            return quoted + ": " + square_name(syntax.to) + " is occupied";
        }
        return quoted + " would leave your king in check";
    }
    if ((p.own_men() & bit(syntax.from)) == 0) {
        return quoted + ": no man of yours on " + square_name(syntax.from);
    }
    MoveList pseudo;
    generate_pseudo_legal(p, pseudo);
    for (const Move move : pseudo) {
        if (!move.is_drop() && move.from() == syntax.from && move.to() == syntax.to) {
            return quoted + " would leave your king in check";
        }
    }
    return quoted + ": the man on " + square_name(syntax.from) + " cannot move to " +
           square_name(syntax.to) + " with its powers";
}

}  // namespace

std::string move_notation(Move move) {
    // Written a character at a time: at most five, inside the string's own buffer.
    std::string out;
    const auto square = [&out](Square s) {
        out += static_cast<char>('a' + file_of(s));
        out += static_cast<char>('1' + rank_of(s));
    };
    if (move.is_drop()) {
        out += '@';
    } else {
        square(move.from());
        out += move.is_capture() ? 'x' : '-';
    }
    square(move.to());
    return out;
}

Expected<Move> parse_move(const Position& p, std::string_view text) {
    const auto syntax = parse_syntax(text);
    if (!syntax) {
        return make_error(syntax.error());
    }
    MoveList legal;
    generate_legal(p, legal);
    for (const Move move : legal) {
        const bool same = syntax->drop ? move.is_drop() && move.to() == syntax->to
                                       : !move.is_drop() && move.from() == syntax->from &&
                                             move.to() == syntax->to;
        if (!same) {
            continue;
        }
        if (syntax->capture_marked && !move.is_capture()) {
            return make_error(quote(text) + " is not a capture; write " + move_notation(move));
        }
        return move;
    }
    return make_error(why_illegal(p, *syntax, quote(text)));
}

}  // namespace core::chessence
