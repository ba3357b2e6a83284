#pragma once
// The board part of every position string in RULES.md: ranks from the top down separated by '/',
// files from a, and a digit for each run of empty squares.
#include <string>
#include <string_view>

namespace core {

// Appends the ranks of a files×ranks board to `out`. cell(file, rank) returns the text of a square
// (a std::string, or a std::string_view of text that outlives the call):
// empty for an empty square (counted into the run's digit), otherwise what the string writes there
// (a piece such as "K" or "+q", or "*" for a missing square, which ends a run).
template <class Cell>
void append_board_ranks(std::string& out, int files, int ranks, Cell&& cell) {
    for (int rank = ranks - 1; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < files; ++file) {
            const auto text = cell(file, rank);  // a std::string or a std::string_view
            if (text.empty()) {
                ++empty;
                continue;
            }
            if (empty > 0) {
                out += static_cast<char>('0' + empty);
                empty = 0;
            }
            out += text;
        }
        if (empty > 0) {
            out += static_cast<char>('0' + empty);
        }
        if (rank > 0) {
            out += '/';
        }
    }
}

}  // namespace core
