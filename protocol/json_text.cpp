#include "protocol/json_text.h"

#include <array>
#include <ctime>

#include <nlohmann/json.hpp>

namespace protocol {

namespace {

// The escape nlohmann/json writes for an ASCII character that must be escaped; empty otherwise.
std::string_view escape_of(unsigned char c, char (&buffer)[8]) {
    switch (c) {
        case '"':
            return "\\\"";
        case '\\':
            return "\\\\";
        case '\b':
            return "\\b";
        case '\f':
            return "\\f";
        case '\n':
            return "\\n";
        case '\r':
            return "\\r";
        case '\t':
            return "\\t";
        default:
            break;
    }
    if (c < 0x20) {
        static constexpr char hex[] = "0123456789abcdef";
        buffer[0] = '\\';
        buffer[1] = 'u';
        buffer[2] = '0';
        buffer[3] = '0';
        buffer[4] = hex[c >> 4];
        buffer[5] = hex[c & 0xf];
        return {buffer, 6};
    }
    return {};
}

// What each byte needs in a JSON string: 0 nothing, 1 an escape, 2 the library (not ASCII).
constexpr std::array<unsigned char, 256> byte_kinds = [] {
    std::array<unsigned char, 256> kinds{};
    for (int c = 0; c < 0x20; ++c) {
        kinds[static_cast<std::size_t>(c)] = 1;
    }
    kinds['"'] = 1;
    kinds['\\'] = 1;
    for (int c = 0x80; c < 0x100; ++c) {
        kinds[static_cast<std::size_t>(c)] = 2;
    }
    return kinds;
}();

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
    std::size_t plain = 0;
    while (plain < text.size() && byte_kinds[static_cast<unsigned char>(text[plain])] == 0) {
        ++plain;
    }
    if (plain == text.size()) {  // nothing to escape: most strings
        out += '"';
        out += text;
        out += '"';
        return;
    }
    const std::size_t mark = out.size();
    out += '"';
    std::size_t clean_from = 0;  // the characters from here on need no escape so far
    for (std::size_t i = plain; i < text.size(); ++i) {  // those before `plain` need none
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            out.resize(mark);
            out +=
                nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            return;
        }
        char buffer[8];
        if (const auto escape = escape_of(c, buffer); !escape.empty()) {
            out.append(text.data() + clean_from, i - clean_from);
            out += escape;
            clean_from = i + 1;
        }
    }
    out.append(text.data() + clean_from, text.size() - clean_from);
    out += '"';
}

void append_string_array(std::string& out, const std::vector<std::string>& items) {
    out += '[';
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) {
            out += ',';
        }
        append_json_string(out, items[i]);
    }
    out += ']';
}

std::string iso_utc(std::int64_t unix_ms) {
    const auto seconds = static_cast<std::time_t>(unix_ms / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

}  // namespace protocol
