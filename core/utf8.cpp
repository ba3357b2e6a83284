#include "core/utf8.h"

namespace core {

namespace {

bool is_continuation(unsigned char byte) {
    return (byte & 0xC0) == 0x80;
}

// The length of the well-formed sequence at text[at], or 0 if none starts there (RFC 3629).
std::size_t sequence_length(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    if (lead < 0x80) {
        return 1;
    }
    std::size_t length = 0;
    unsigned char low = 0x80;
    unsigned char high = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        low = lead == 0xE0 ? 0xA0 : 0x80;   // no overlong forms
        high = lead == 0xED ? 0x9F : 0xBF;  // no surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        low = lead == 0xF0 ? 0x90 : 0x80;
        high = lead == 0xF4 ? 0x8F : 0xBF;  // nothing past U+10FFFF
    } else {
        return 0;
    }
    if (at + length > text.size() || byte(at + 1) < low || byte(at + 1) > high) {
        return 0;
    }
    for (std::size_t i = 2; i < length; ++i) {
        if (!is_continuation(byte(at + i))) {
            return 0;
        }
    }
    return length;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t at = 0; at < text.size();) {
        if (const auto length = sequence_length(text, at); length > 0) {
            out.append(text.substr(at, length));
            at += length;
        } else {
            out += "\xEF\xBF\xBD";
            ++at;
        }
    }
    return out;
}

std::size_t utf8_char_length(std::string_view text, std::size_t at) {
    const auto length = sequence_length(text, at);
    return length == 0 ? 1 : length;
}

std::string_view utf8_span(std::string_view text, std::size_t at, std::size_t bytes) {
    if (at >= text.size()) {
        return {};
    }
    std::size_t begin = at;
    while (begin > 0 && is_continuation(static_cast<unsigned char>(text[begin]))) {
        --begin;
    }
    std::size_t end = std::min(text.size(), at + bytes);
    while (end < text.size() && is_continuation(static_cast<unsigned char>(text[end]))) {
        ++end;
    }
    return text.substr(begin, end - begin);
}

}  // namespace core
