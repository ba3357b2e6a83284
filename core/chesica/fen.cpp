#include "core/chesica/fen.h"

#include "core/utf8.h"

#include "core/board_text.h"

#include <bit>
#include <charconv>
#include <optional>
#include <vector>

namespace core::chesica {

namespace {

constexpr int max_counter = 1'000'000'000;

std::optional<Piece> piece_from_letter(char c) {
    switch (c) {
        case 'B':
            return Piece{Side::first, Kind::bishop, false};
        case 'R':
            return Piece{Side::first, Kind::rook, false};
        case 'Q':
            return Piece{Side::first, Kind::queen, false};
        case 'b':
            return Piece{Side::second, Kind::bishop, false};
        case 'r':
            return Piece{Side::second, Kind::rook, false};
        case 'q':
            return Piece{Side::second, Kind::queen, false};
        default:
            return std::nullopt;
    }
}

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos) {
            return parts;
        }
        start = end + 1;
    }
}

// Parses one rank (`rank` 0..7) into p, or says what is wrong with it.
Status parse_rank(std::string_view text, int rank, Position& p) {
    const std::string where = "rank " + std::to_string(rank + 1) + " ('" + std::string(text) + "')";
    int file = 0;
    bool after_digit = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '1' && c <= '8') {
            if (after_digit) {
                return make_error(where + " has two digits in a row; write one run of empties");
            }
            file += c - '0';
            after_digit = true;
        } else {
            const bool promoted = c == '+';
            if (promoted && ++i == text.size()) {
                return make_error(where + " ends with '+'; it must come before a piece letter");
            }
            auto piece = piece_from_letter(text[i]);
            if (!piece) {
                return make_error(where + " has '" + valid_utf8(std::string(1, text[i])) +
                                  "', not a piece (B R Q, b r q, with '+' when promoted) or 1-8");
            }
            if (file >= board_files) {
                return make_error(where + " has more than 8 squares");
            }
            piece->promoted = promoted;
            p.put(make_square(file, rank), *piece);
            ++file;
            after_digit = false;
        }
    }
    if (file != board_files) {
        return make_error(where + " has " + std::to_string(file) + " squares instead of 8");
    }
    return ok_status();
}

// A whole number without sign or leading zeros, from `minimum` to max_counter.
std::optional<int> parse_counter(std::string_view text, int minimum) {
    if (text.empty() || (text.size() > 1 && text[0] == '0')) {
        return std::nullopt;
    }
    int value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || value < minimum ||
        value > max_counter) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

std::string piece_text(const Piece& piece) {
    constexpr char letters[2][kind_count] = {{'B', 'R', 'Q'}, {'b', 'r', 'q'}};
    std::string text = piece.promoted ? "+" : "";
    text += letters[side_index(piece.side)][static_cast<int>(piece.kind)];
    return text;
}

std::string to_fen(const Position& p) {
    std::string text;
    append_board_ranks(text, board_files, board_ranks, [&p](int file, int rank) {
        const auto piece = p.piece_on(make_square(file, rank));
        return piece ? piece_text(*piece) : std::string();
    });
    text += p.to_move == Side::first ? " w " : " b ";
    text += std::to_string(p.plies_without_capture) + " " + std::to_string(p.move_number);
    return text;
}

Expected<Position> parse_fen(std::string_view text) {
    const auto fields = split(text, ' ');
    if (fields.size() != 4) {
        return make_error(
            "a position string has 4 fields separated by single spaces (board, side, "
            "plies without capture, move number), found " +
            std::to_string(fields.size()));
    }
    const auto ranks = split(fields[0], '/');
    if (ranks.size() != board_ranks) {
        return make_error("the board has " + std::to_string(ranks.size()) +
                          " ranks separated by '/' instead of 8");
    }
    Position p;
    for (int i = 0; i < board_ranks; ++i) {
        if (const auto status = parse_rank(ranks[i], board_ranks - 1 - i, p); !status) {
            return make_error(status.error());
        }
    }
    for (const Side side : {Side::first, Side::second}) {
        if (std::popcount(p.pieces(side)) > max_pieces_per_side) {
            return make_error(std::string(side == Side::first ? "White" : "Black") + " has " +
                              std::to_string(std::popcount(p.pieces(side))) +
                              " pieces; a side has at most 12");
        }
    }
    if (p.occupied() == 0) {
        return make_error("the board has no pieces");
    }
    if (fields[1] != "w" && fields[1] != "b") {
        return make_error("the side to move must be 'w' or 'b', not '" + valid_utf8(fields[1]) +
                          "'");
    }
    p.to_move = fields[1] == "w" ? Side::first : Side::second;
    const auto plies = parse_counter(fields[2], 0);
    if (!plies) {
        return make_error(
            "plies without capture must be a whole number from 0 (no sign or "
            "leading zeros), not '" +
            std::string(fields[2]) + "'");
    }
    const auto move_number = parse_counter(fields[3], 1);
    if (!move_number) {
        return make_error(
            "the move number must be a whole number from 1 (no sign or leading "
            "zeros), not '" +
            std::string(fields[3]) + "'");
    }
    p.plies_without_capture = *plies;
    p.move_number = *move_number;
    return p;
}

}  // namespace core::chesica
