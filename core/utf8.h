#pragma once
// UTF-8 in messages: core quotes untrusted text (a move, a position string) in its error messages,
// and a message must stay valid UTF-8 even when the text is not, or when only a part of it is
// quoted (issue 17: the move `aé` once made an error that quoted half of `é`).
#include <cstddef>
#include <string>
#include <string_view>

namespace core {

// `text` with every byte that does not belong to a well-formed UTF-8 sequence (a stray
// continuation byte, a cut or overlong sequence, a surrogate, a code point past U+10FFFF) replaced
// by U+FFFD. Valid text comes back unchanged.
std::string valid_utf8(std::string_view text);

// The byte length of the UTF-8 character that starts at text[at] (1 for a byte that starts none).
std::size_t utf8_char_length(std::string_view text, std::size_t at);

// The characters of `text` that overlap bytes [at, at + bytes): the range widened to whole
// characters, so a quoted part never ends inside one.
std::string_view utf8_span(std::string_view text, std::size_t at, std::size_t bytes);

}  // namespace core
