#include "core/record.h"

#include <cctype>
#include <charconv>
#include <cstdio>

namespace core {

namespace {

constexpr std::size_t line_width = 80;

bool is_control(char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
}

std::string quoted(std::string_view value) {
    std::string out = "\"";
    for (char c : value) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else {
            out += is_control(c) ? ' ' : c;
        }
    }
    return out + "\"";
}

// The movetext tokens of a record: move numbers, moves, and the result last.
std::vector<std::string> movetext_tokens(const Record& record) {
    std::vector<std::string> tokens;
    const int shift = record.second_moves_first ? 1 : 0;
    for (std::size_t i = 0; i < record.moves.size(); ++i) {
        const int ply = static_cast<int>(i) + shift;
        const auto number = std::to_string(record.first_move_number + ply / 2);
        if (ply % 2 == 0) {
            tokens.push_back(number + ".");
        } else if (i == 0) {
            tokens.push_back(number + "...");
        }
        tokens.push_back(record.moves[i]);
        if (i < record.clocks.size() && record.clocks[i]) {
            tokens.push_back("{[%clk " + clock_text(*record.clocks[i]) + "]}");
        }
    }
    tokens.push_back(record.result);
    return tokens;
}

}  // namespace

std::optional<std::string> Record::tag(std::string_view name) const {
    for (const auto& t : tags) {
        if (t.name == name) {
            return t.value;
        }
    }
    return std::nullopt;
}

void Record::set_tag(std::string_view name, std::string value) {
    for (auto& t : tags) {
        if (t.name == name) {
            t.value = std::move(value);
            return;
        }
    }
    tags.push_back(Tag{std::string(name), std::move(value)});
}

bool is_result_token(std::string_view token) {
    return token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*";
}

std::string clock_text(std::int64_t ms) {
    const auto tenths = ms < 0 ? 0 : ms / 100;
    char text[40];
    std::snprintf(text, sizeof text, "%lld:%02lld:%02lld.%lld",
                  static_cast<long long>(tenths / 36000), static_cast<long long>(tenths / 600 % 60),
                  static_cast<long long>(tenths / 10 % 60), static_cast<long long>(tenths % 10));
    return text;
}

std::optional<std::int64_t> parse_clock_text(std::string_view text) {
    // h+ ':' mm ':' ss ['.' digits]
    const auto first = text.find(':');
    const auto second = first == std::string_view::npos ? first : text.find(':', first + 1);
    if (second == std::string_view::npos || second != first + 3) {
        return std::nullopt;
    }
    const auto number = [](std::string_view digits) -> std::optional<std::int64_t> {
        std::int64_t value = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (digits.empty() || digits.size() > 9 || ec != std::errc() ||
            end != digits.data() + digits.size() || digits.front() == '-' ||
            digits.front() == '+') {
            return std::nullopt;
        }
        return value;
    };
    const auto rest = text.substr(second + 1);
    const auto dot = rest.find('.');
    const auto hours = number(text.substr(0, first));
    const auto minutes = number(text.substr(first + 1, 2));
    const auto seconds = number(rest.substr(0, dot));
    if (!hours || !minutes || !seconds || *minutes > 59 || *seconds > 59 ||
        rest.substr(0, dot).size() != 2) {
        return std::nullopt;
    }
    std::int64_t ms = ((*hours * 60 + *minutes) * 60 + *seconds) * 1000;
    if (dot != std::string_view::npos) {
        const auto fraction = rest.substr(dot + 1);
        if (!number(fraction)) {
            return std::nullopt;
        }
        std::int64_t scale = 100;
        for (std::size_t i = 0; i < fraction.size() && i < 3; ++i, scale /= 10) {
            ms += (fraction[i] - '0') * scale;
        }
    }
    return ms;
}

std::string write_record(const Record& record) {
    std::string out;
    for (const auto& t : record.tags) {
        out += "[" + t.name + " " + quoted(t.value) + "]\n";
    }
    if (!record.tags.empty()) {
        out += "\n";
    }
    std::size_t column = 0;
    for (const auto& token : movetext_tokens(record)) {
        if (column > 0 && column + 1 + token.size() > line_width) {
            out += "\n";
            column = 0;
        } else if (column > 0) {
            out += " ";
            ++column;
        }
        out += token;
        column += token.size();
    }
    return out + "\n";
}

std::string write_records(const std::vector<Record>& records) {
    std::string out;
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (i > 0) {
            out += "\n";
        }
        out += write_record(records[i]);
    }
    return out;
}

}  // namespace core
