#pragma once
// Game records as text (docs/records.md): a PGN-style tag section followed by numbered movetext
// that ends with a result token. This layer knows the text format only, not the rules: moves are
// kept as written, and checking them is the job of core::Game (see `chessence replay --record`).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.h"

namespace core {

struct Tag {
    std::string name;   // letters, digits and '_', starting with a letter
    std::string value;  // any text without control characters
    friend bool operator==(const Tag&, const Tag&) = default;
};

struct Record {
    std::vector<Tag> tags;            // in the order they are written
    int first_move_number = 1;        // the number written before the first move
    bool second_moves_first = false;  // the first move is by the second side ("5... a8-a7")
    std::vector<std::string> moves;
    // The mover's clock after each move, in milliseconds, written as a `{[%clk h:mm:ss.s]}`
    // comment after the move: empty when the record has none, else one entry per move (nothing
    // where a move has no clock).
    std::vector<std::optional<std::int64_t>> clocks;
    std::string result = "*";  // "1-0", "0-1", "1/2-1/2" or "*"

    // The value of the first tag called `name`, if any.
    std::optional<std::string> tag(std::string_view name) const;
    // Replaces the value of tag `name`, or appends the tag.
    void set_tag(std::string_view name, std::string value);

    friend bool operator==(const Record&, const Record&) = default;
};

// Whether `token` is one of the four result tokens.
bool is_result_token(std::string_view token);

// A clock as a %clk command writes it: "h:mm:ss.s", tenths rounded down.
std::string clock_text(std::int64_t ms);
// "h:mm:ss" or "h:mm:ss.s…" back to milliseconds; nothing when malformed.
std::optional<std::int64_t> parse_clock_text(std::string_view text);

// The text of one record: tag lines, a blank line, movetext wrapped at 80 columns, a newline.
// Control characters in tag values are written as spaces; quotes and backslashes are escaped.
std::string write_record(const Record& record);
// Several records, separated by a blank line.
std::string write_records(const std::vector<Record>& records);

// Every record in `text`. Errors give the line number (from 1) and what is wrong: a malformed tag
// line, a move number out of sequence, a Result tag that disagrees with the result token, a record
// without a result token, a malformed %clk. A `[%clk …]` command in a `{…}` comment after a move
// becomes that move's clock; the rest of `{…}` and `;…` comments, `%` escape lines and `$n`
// annotations are skipped; control characters in tag values read as spaces. The round trip
// parse_records(write_records(r)) == r is exact for tag values without control characters, clocks
// in whole tenths of a second, and numbering left at its default in records without moves.
Expected<std::vector<Record>> parse_records(std::string_view text);

}  // namespace core
