#include "core/chesica/notation.h"

#include "core/utf8.h"

namespace core::chesica {

namespace {

constexpr std::size_t max_move_squares = max_chain_jumps + 1;

// The text in single quotes, valid UTF-8 whatever the text holds (core/utf8.h).
std::string quoted(std::string_view text) {
    std::string result(1, '\'');
    result.append(valid_utf8(text));
    result += '\'';
    return result;
}

}  // namespace

std::string square_name(Square s) {
    return {static_cast<char>('a' + file_of(s)), static_cast<char>('1' + rank_of(s))};
}

std::vector<Square> move_squares(const Move& m) {
    std::vector<Square> squares{m.from};
    if (m.type == MoveType::jump) {
        squares.insert(squares.end(), m.landing.begin(), m.landing.begin() + m.jumps);
    } else {
        squares.push_back(m.to);
    }
    return squares;
}

std::string to_notation(const Move& m) {
    const char separator = m.type == MoveType::step ? '-' : 'x';
    std::string text;
    for (const Square s : move_squares(m)) {
        if (!text.empty()) {
            text += separator;
        }
        text += square_name(s);
    }
    return text;
}

Expected<std::vector<Square>> parse_move_squares(std::string_view text) {
    if (text.empty()) {
        return make_error("the move is empty");
    }
    std::vector<Square> squares;
    std::size_t i = 0;
    while (true) {
        if (i == text.size()) {
            return make_error("move " + quoted(text) +
                              " ends with a separator instead of a square");
        }
        if (i + 2 > text.size()) {
            return make_error("move " + quoted(text) + " ends in the middle of a square");
        }
        const char file = text[i];
        const char rank = text[i + 1];
        if (file < 'a' || file > 'h' || rank < '1' || rank > '8') {
            return make_error(quoted(utf8_span(text, i, 2)) + " in move " + quoted(text) +
                              " is not a square (files a-h, ranks 1-8)");
        }
        squares.push_back(make_square(file - 'a', rank - '1'));
        i += 2;
        if (i == text.size()) {
            break;
        }
        if (text[i] != '-' && text[i] != 'x') {
            return make_error("expected '-' or 'x' after " + quoted(text.substr(i - 2, 2)) +
                              " in move " + quoted(text) + ", found " +
                              quoted(utf8_span(text, i, 1)));
        }
        ++i;
        if (squares.size() == max_move_squares) {
            return make_error("move " + quoted(text) + " names more than " +
                              std::to_string(max_move_squares) + " squares");
        }
    }
    if (squares.size() < 2) {
        return make_error("move " + quoted(text) + " names one square; a move needs at least two");
    }
    return squares;
}

}  // namespace core::chesica
