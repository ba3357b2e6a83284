#pragma once
// Helpers for the Chessence tests: positions from piece lists, legal moves as sorted notation.
#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/chessence/fen.h"
#include "core/chessence/movegen.h"
#include "core/chessence/notation.h"

namespace chessence_test {

using namespace core::chessence;

// The position string of the pieces listed like "Kf1 ka9 Md2 mc7" (missing squares filled in).
inline std::string fen_of(std::string_view pieces, std::string_view reserves = "", char side = 'w',
                          int quiet_plies = 0, int move_number = 1) {
    char board[rank_count][file_count] = {};
    std::istringstream in{std::string(pieces)};
    std::string item;
    while (in >> item) {
        if (item.size() != 3) {
            throw std::invalid_argument("bad piece " + item);
        }
        board[item[2] - '1'][item[1] - 'a'] = item[0];
    }
    std::string fen;
    for (int rank = rank_count - 1; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < file_count; ++file) {
            char c = board[rank][file];
            if (is_missing(make_square(file, rank))) {
                c = '*';
            }
            if (c == 0) {
                ++empty;
                continue;
            }
            if (empty > 0) {
                fen += std::to_string(empty);
                empty = 0;
            }
            fen += c;
        }
        if (empty > 0) {
            fen += std::to_string(empty);
        }
        if (rank > 0) {
            fen += '/';
        }
    }
    return fen + "[" + std::string(reserves) + "] " + side + " " + std::to_string(quiet_plies) +
           " " + std::to_string(move_number);
}

// The position of a position string; throws (failing the test) when it does not parse.
inline Position position_of(std::string_view fen) {
    auto parsed = parse_position(fen);
    if (!parsed) {
        throw std::invalid_argument(std::string(fen) + ": " + parsed.error());
    }
    return *parsed;
}

inline Position setup(std::string_view pieces, std::string_view reserves = "", char side = 'w') {
    return position_of(fen_of(pieces, reserves, side));
}

// Every legal move in notation, sorted.
inline std::vector<std::string> legal_names(const Position& p) {
    MoveList list;
    generate_legal(p, list);
    std::vector<std::string> names;
    for (const Move move : list) {
        names.push_back(move_notation(move));
    }
    std::sort(names.begin(), names.end());
    return names;
}

// The legal moves that start on `square` ("@" for drops), sorted.
inline std::vector<std::string> legal_names_from(const Position& p, std::string_view square) {
    std::vector<std::string> names;
    for (auto& name : legal_names(p)) {
        if (std::string_view(name).substr(0, square.size()) == square) {
            names.push_back(name);
        }
    }
    return names;
}

inline bool is_legal(const Position& p, std::string_view notation) {
    const auto names = legal_names(p);
    return std::find(names.begin(), names.end(), notation) != names.end();
}

using Names = std::vector<std::string>;

}  // namespace chessence_test
