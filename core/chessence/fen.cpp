#include "core/chessence/fen.h"

#include "core/utf8.h"

#include "core/board_text.h"

#include <array>
#include <charconv>
#include <cstdint>

namespace core::chessence {

namespace {

constexpr std::array<std::string_view, 2> colour_names = {"White", "Black"};

// The ranks of the placement, rank 9 first, or an error.
Expected<std::array<std::string_view, rank_count>> split_ranks(std::string_view placement) {
    std::array<std::string_view, rank_count> ranks{};
    int found = 0;
    std::size_t start = 0;
    while (true) {
        const std::size_t slash = placement.find('/', start);
        const std::string_view rank = placement.substr(start, slash - start);
        if (found < rank_count) {
            ranks[found] = rank;
        }
        ++found;
        if (slash == std::string_view::npos) {
            break;
        }
        start = slash + 1;
    }
    if (found != rank_count) {
        return make_error("the placement has " + std::to_string(found) + " ranks; it needs " +
                          std::to_string(rank_count));
    }
    return ranks;
}

// Places one rank's text on `p`; the error names the rank and the square.
Status parse_rank(std::string_view text, int rank, Position& p, std::array<int, 2>& kings) {
    const std::string where = "rank " + std::to_string(rank + 1);
    int file = 0;
    bool after_digit = false;
    for (const char c : text) {
        if (c >= '1' && c <= '9') {
            if (after_digit) {
                return make_error(where + ": two digits in a row; write one digit per run");
            }
            for (int i = 0; i < c - '0'; ++i, ++file) {
                if (file >= file_count) {
                    return make_error(where + " describes more than " + std::to_string(file_count) +
                                      " squares");
                }
                if (is_missing(make_square(file, rank))) {
                    return make_error(where +
                                      ": the run of empty squares covers the missing square " +
                                      square_name(make_square(file, rank)) + " (write '*')");
                }
            }
            after_digit = true;
            continue;
        }
        after_digit = false;
        if (file >= file_count) {
            return make_error(where + " describes more than " + std::to_string(file_count) +
                              " squares");
        }
        const Square s = make_square(file++, rank);
        if (c == '*') {
            if (!is_missing(s)) {
                return make_error(where + ": '*' on " + square_name(s) +
                                  ", which is not a missing square");
            }
            continue;
        }
        const bool piece = c == 'K' || c == 'k' || c == 'M' || c == 'm';
        if (!piece) {
            return make_error(where + ": unexpected character '" + valid_utf8(std::string(1, c)) +
                              "'");
        }
        const bool is_king = c == 'K' || c == 'k';
        if (is_missing(s)) {
            return make_error(std::string(is_king ? "a king" : "a man") +
                              " on the missing square " + square_name(s));
        }
        const int colour = (c == 'K' || c == 'M') ? 0 : 1;
        if (is_king) {
            ++kings[colour];
            p.king[colour] = static_cast<std::uint8_t>(s);
            p.kings |= bit(s);
        } else {
            p.men[colour] |= bit(s);
        }
    }
    if (file != file_count) {
        return make_error(where + " describes " + std::to_string(file) + " squares; it needs " +
                          std::to_string(file_count));
    }
    return ok_status();
}

Status parse_reserves(std::string_view text, Position& p) {
    std::array<int, 2> counts{0, 0};
    for (const char c : text) {
        if (c == 'M') {
            if (counts[1] > 0) {
                return make_error("reserves must list White's men (M) before Black's (m)");
            }
            ++counts[0];
        } else if (c == 'm') {
            ++counts[1];
        } else {
            return make_error("reserves may hold only 'M' and 'm', not '" +
                              valid_utf8(std::string(1, c)) + "'");
        }
    }
    for (int c = 0; c < 2; ++c) {
        if (counts[c] > reserve_capacity) {
            return make_error(std::string(colour_names[c]) + " has " + std::to_string(counts[c]) +
                              " men in reserve; at most " + std::to_string(reserve_capacity));
        }
        p.reserve[c] = static_cast<std::uint8_t>(counts[c]);
    }
    return ok_status();
}

// A counter written without sign or leading zero, at least `minimum`.
Expected<std::uint32_t> parse_counter(std::string_view text, std::uint32_t minimum,
                                      const std::string& what) {
    std::uint32_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    const bool canonical = !text.empty() && (text.size() == 1 || text[0] != '0');
    if (ec != std::errc() || end != text.data() + text.size() || !canonical || value < minimum) {
        return make_error(what + " must be a whole number from " + std::to_string(minimum) +
                          " without leading zeros, not '" + std::string(text) + "'");
    }
    return value;
}

}  // namespace

std::string square_name(Square s) {
    return {static_cast<char>('a' + file_of(s)), static_cast<char>('1' + rank_of(s))};
}

Expected<Position> parse_position(std::string_view text) {
    const std::size_t open = text.find('[');
    const std::size_t close = text.find(']');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
        return make_error("the reserves must follow the placement in brackets, e.g. [MMMmmm]");
    }
    const std::string_view tail = text.substr(close + 1);
    if (tail.size() < 2 || tail[0] != ' ') {
        return make_error("expected ' <w|b> <plies> <move number>' after the reserves");
    }
    const std::size_t space1 = tail.find(' ', 1);
    const std::size_t space2 =
        space1 == std::string_view::npos ? space1 : tail.find(' ', space1 + 1);
    if (space2 == std::string_view::npos || tail.find(' ', space2 + 1) != std::string_view::npos) {
        return make_error(
            "expected exactly ' <w|b> <plies> <move number>' after the reserves, separated by "
            "single spaces");
    }
    Position p;
    const auto ranks = split_ranks(text.substr(0, open));
    if (!ranks) {
        return make_error(ranks.error());
    }
    std::array<int, 2> kings{0, 0};
    for (int i = 0; i < rank_count; ++i) {
        if (auto status = parse_rank((*ranks)[i], rank_count - 1 - i, p, kings); !status) {
            return make_error(status.error());
        }
    }
    for (int c = 0; c < 2; ++c) {
        if (kings[c] != 1) {
            return make_error(std::string(colour_names[c]) +
                              (kings[c] == 0 ? " has no king" : " has more than one king"));
        }
    }
    if (auto status = parse_reserves(text.substr(open + 1, close - open - 1), p); !status) {
        return make_error(status.error());
    }
    const std::string_view side = tail.substr(1, space1 - 1);
    if (side != "w" && side != "b") {
        return make_error("the side to move must be 'w' or 'b', not '" + valid_utf8(side) + "'");
    }
    p.side_to_move = side == "w" ? Colour::white : Colour::black;
    const auto plies = parse_counter(tail.substr(space1 + 1, space2 - space1 - 1), 0,
                                     "the count of plies without capture or drop");
    if (!plies) {
        return make_error(plies.error());
    }
    const auto move_number = parse_counter(tail.substr(space2 + 1), 1, "the move number");
    if (!move_number) {
        return make_error(move_number.error());
    }
    p.quiet_plies = *plies;
    p.move_number = *move_number;
    p.hash = compute_hash(p);
    return p;
}

std::string position_string(const Position& p) {
    std::string out;
    out.reserve(64);
    append_board_ranks(out, file_count, rank_count, [&p](int file, int rank) -> std::string_view {
        const Square s = make_square(file, rank);
        const Bitboard b = bit(s);
        if (is_missing(s)) {
            return "*";
        }
        if ((p.kings & b) != 0) {
            return p.king[0] == s ? "K" : "k";
        }
        if ((p.men[0] & b) != 0) {
            return "M";
        }
        return (p.men[1] & b) != 0 ? "m" : "";
    });
    out += '[';
    out.append(p.reserve[0], 'M').append(p.reserve[1], 'm');
    out += p.side_to_move == Colour::white ? "] w " : "] b ";
    out += std::to_string(p.quiet_plies);
    out += ' ';
    out += std::to_string(p.move_number);
    return out;
}

}  // namespace core::chessence
