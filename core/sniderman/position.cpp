#include "core/sniderman/position.h"

#include "core/utf8.h"

#include "core/board_text.h"

#include <charconv>
#include <optional>

namespace core::sniderman {

std::string square_name(Square s) {
    return {static_cast<char>('a' + file_of(s)), static_cast<char>('1' + rank_of(s))};
}

std::string move_name(Move m) {
    return square_name(m.from) + "x" + square_name(m.to);
}

char piece_letter(PieceCode p) {
    constexpr std::string_view letters = "?KQRBN";
    const char upper = letters[static_cast<std::size_t>(kind_of(p))];
    return colour_of(p) == Colour::white ? upper : static_cast<char>(upper - 'A' + 'a');
}

void Position::put(Square s, PieceCode p) {
    cells |= std::uint64_t{p} << (4 * s);
    by_colour[colour_index(colour_of(p))] |= square_bit(s);
}

namespace {

std::optional<PieceCode> piece_from_letter(char c) {
    constexpr std::string_view letters = "KQRBN";
    const auto upper = letters.find(c);
    if (upper != std::string_view::npos) {
        return make_piece(Colour::white, static_cast<Kind>(upper + 1));
    }
    const auto lower = std::string_view("kqrbn").find(c);
    if (lower != std::string_view::npos) {
        return make_piece(Colour::black, static_cast<Kind>(lower + 1));
    }
    return std::nullopt;
}

// Reads one rank (a..d) into p; the error names the rank.
Status parse_rank(std::string_view text, int rank, Position& p) {
    const std::string where = "rank " + std::to_string(rank + 1);
    int file = 0;
    bool after_digit = false;
    for (const char c : text) {
        if (c >= '1' && c <= '4') {
            if (after_digit) {
                return make_error(where + ": write a run of empty squares as one digit");
            }
            file += c - '0';
            after_digit = true;
        } else if (const auto piece = piece_from_letter(c)) {
            if (file < board_files) {
                p.put(make_square(file, rank), *piece);
            }
            ++file;
            after_digit = false;
        } else {
            return make_error(where + ": unexpected character '" + valid_utf8(std::string(1, c)) +
                              "' (pieces are KQRBN/kqrbn, empty squares a digit 1-4)");
        }
        if (file > board_files) {
            return make_error(where + " describes more than 4 squares");
        }
    }
    if (file < board_files) {
        return make_error(where + " describes only " + std::to_string(file) + " of 4 squares");
    }
    return ok_status();
}

}  // namespace

Expected<Position> parse_position(std::string_view text) {
    const auto space = text.find(' ');
    if (space == std::string_view::npos) {
        return make_error("a position needs the board, a space and the next ply number");
    }
    const std::string_view board = text.substr(0, space);
    const std::string_view ply_text = text.substr(space + 1);
    Position p;
    std::size_t start = 0;
    for (int i = 0; i < board_files; ++i) {
        const auto slash = board.find('/', start);
        const bool last = i == board_files - 1;
        if (last != (slash == std::string_view::npos)) {
            return make_error("the board must have exactly 4 ranks separated by '/'");
        }
        const auto end = last ? board.size() : slash;
        if (auto status = parse_rank(board.substr(start, end - start), 3 - i, p); !status) {
            return make_error(status.error());
        }
        start = end + 1;
    }
    int ply = 0;
    const auto [ptr, ec] = std::from_chars(ply_text.data(), ply_text.data() + ply_text.size(), ply);
    if (ply_text.empty() || ec != std::errc() || ptr != ply_text.data() + ply_text.size() ||
        ply_text[0] < '1' || ply_text[0] > '9') {
        return make_error("the next ply number must be a whole number from 1, not '" +
                          valid_utf8(ply_text) + "'");
    }
    if (ply > 999) {
        return make_error("the next ply number must be at most 999");
    }
    p.ply = ply;
    return p;
}

std::string format_position(const Position& p) {
    std::string out;
    append_board_ranks(out, board_files, board_files, [&p](int file, int rank) {
        const PieceCode piece = p.at(make_square(file, rank));
        return piece == no_piece ? std::string() : std::string(1, piece_letter(piece));
    });
    out += ' ';
    return out + std::to_string(p.ply);
}

namespace {

std::optional<Square> parse_square(std::string_view text) {
    if (text.size() != 2 || text[0] < 'a' || text[0] > 'd' || text[1] < '1' || text[1] > '4') {
        return std::nullopt;
    }
    return make_square(text[0] - 'a', text[1] - '1');
}

}  // namespace

Expected<Move> parse_move(std::string_view text) {
    if (text.size() != 5 || (text[2] != 'x' && text[2] != '-')) {
        std::string message = "a move is written like a1xb2 (or a1-b2), not '";
        message.append(text);
        return make_error(message + "'");
    }
    const auto from = parse_square(text.substr(0, 2));
    const auto to = parse_square(text.substr(3, 2));
    if (!from || !to) {
        std::string message(text);
        return make_error(message + " names a square off the a1-d4 board");
    }
    return Move{static_cast<std::uint8_t>(*from), static_cast<std::uint8_t>(*to)};
}

Expected<Move> parse_legal_move(const Position& p, std::string_view text) {
    auto move = parse_move(text);
    if (!move) {
        return move;
    }
    for (const Move m : generate_captures(p)) {
        if (m == *move) {
            return m;
        }
    }
    const std::string name = move_name(*move);
    if (p.at(move->from) == no_piece) {
        return make_error(name + ": there is no piece on " + square_name(move->from));
    }
    if (p.at(move->to) == no_piece || colour_of(p.at(move->to)) == colour_of(p.at(move->from))) {
        return make_error(name + ": every move must capture a piece of the other colour");
    }
    return make_error(name + ": the piece on " + square_name(move->from) + " cannot reach " +
                      square_name(move->to));
}

std::uint64_t perft(const Position& p, int depth) {
    if (depth == 0) {
        return 1;
    }
    const MoveList moves = generate_captures(p);
    if (depth == 1) {
        return static_cast<std::uint64_t>(moves.size);
    }
    std::uint64_t nodes = 0;
    for (const Move m : moves) {
        nodes += perft(make_move(p, m), depth - 1);
    }
    return nodes;
}

}  // namespace core::sniderman
