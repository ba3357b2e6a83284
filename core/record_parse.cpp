// parse_records: the reading half of core/record.h, line by line with a small state machine.
#include <cctype>

#include "core/record.h"

namespace core {

namespace {

bool is_move_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '@' || c == '-' || c == '+' ||
           c == '=' || c == '#' || c == '!' || c == '?';
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) {
        s.remove_prefix(1);
    }
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) {
        s.remove_suffix(1);
    }
    return s;
}

class Parser {
public:
    Expected<std::vector<Record>> run(std::string_view text) {
        if (text.substr(0, 3) == "\xEF\xBB\xBF") {
            text.remove_prefix(3);
        }
        while (!text.empty() || line_ == 0) {
            ++line_;
            const auto end = text.find('\n');
            const auto line = text.substr(0, end);
            text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
            if (auto status = parse_line(line); !status) {
                return make_error(status.error());
            }
        }
        if (in_comment_) {
            return fail_at(comment_line_, "a '{' comment is never closed");
        }
        if (started_) {
            return fail_at(record_line_, "the record starting here has no result token");
        }
        return std::move(records_);
    }

private:
    static Error fail_at(int line, const std::string& message) {
        return make_error("line " + std::to_string(line) + ": " + message);
    }
    Error fail(const std::string& message) const { return fail_at(line_, message); }

    void start_record() {
        if (!started_) {
            started_ = true;
            record_line_ = line_;
        }
    }

    Status parse_line(std::string_view line) {
        if (!in_comment_ && !line.empty() && line.front() == '%') {
            return ok_status();  // an escape line
        }
        const auto trimmed = trim(line);
        if (!in_comment_ && !trimmed.empty() && trimmed.front() == '[') {
            return parse_tag(trimmed);
        }
        return parse_movetext(line);
    }

    Status parse_tag(std::string_view s) {
        if (in_movetext_) {
            return fail("a tag pair inside movetext (the record starting at line " +
                        std::to_string(record_line_) + " has no result token)");
        }
        start_record();
        if (s.back() != ']') {
            return fail("a tag pair must end with ']' on the same line");
        }
        s = trim(s.substr(1, s.size() - 2));
        std::size_t i = 0;
        while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) {
            ++i;
        }
        Tag tag{std::string(s.substr(0, i)), ""};
        if (tag.name.empty() || !std::isalpha(static_cast<unsigned char>(tag.name[0]))) {
            return fail("a tag name must start with a letter and hold letters, digits or '_'");
        }
        auto rest = trim(s.substr(i));
        if (rest.size() < 2 || rest.front() != '"' || i == s.size() ||
            !std::isspace(static_cast<unsigned char>(s[i]))) {
            return fail("tag " + tag.name + ": expected a space and a quoted value");
        }
        std::size_t j = 1;
        for (; j < rest.size() && rest[j] != '"'; ++j) {
            if (rest[j] == '\\' && j + 1 < rest.size()) {
                ++j;
            }
            const auto c = static_cast<unsigned char>(rest[j]);
            tag.value += c < 0x20 || c == 0x7f ? ' ' : rest[j];  // as the writer does
        }
        if (j != rest.size() - 1) {
            return fail("tag " + tag.name + ": the value must be one quoted string");
        }
        current_.tags.push_back(std::move(tag));
        return ok_status();
    }

    Status parse_movetext(std::string_view line) {
        std::size_t i = 0;
        while (i < line.size()) {
            if (in_comment_) {
                const auto close = line.find('}', i);
                if (close == std::string_view::npos) {
                    comment_.append(line.substr(i)).append(" ");
                    return ok_status();
                }
                comment_.append(line.substr(i, close - i));
                in_comment_ = false;
                i = close + 1;
                if (auto status = comment_done(); !status) {
                    return status;
                }
                continue;
            }
            const char c = line[i];
            if (std::isspace(static_cast<unsigned char>(c))) {
                ++i;
            } else if (c == ';') {
                return ok_status();
            } else if (c == '{') {
                in_comment_ = true;
                comment_line_ = line_;
                comment_.clear();
                ++i;
            } else if (c == '(' || c == ')') {
                return fail("variations in parentheses are not supported");
            } else {
                auto end = i;
                while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end])) &&
                       line[end] != '{' && line[end] != ';') {
                    ++end;
                }
                if (auto status = parse_token(line.substr(i, end - i)); !status) {
                    return status;
                }
                i = end;
            }
        }
        return ok_status();
    }

    Status parse_token(std::string_view token) {
        start_record();
        in_movetext_ = true;
        if (is_result_token(token)) {
            return finish_record(token);
        }
        if (token.front() == '$') {
            return ok_status();  // a numeric annotation glyph
        }
        if (std::isdigit(static_cast<unsigned char>(token.front()))) {
            std::size_t digits = 0;
            while (digits < token.size() &&
                   std::isdigit(static_cast<unsigned char>(token[digits]))) {
                ++digits;
            }
            std::size_t dots = digits;
            while (dots < token.size() && token[dots] == '.') {
                ++dots;
            }
            if (dots > digits) {
                if (auto status = number(token.substr(0, digits), dots - digits); !status) {
                    return status;
                }
                token.remove_prefix(dots);
                if (token.empty()) {
                    return ok_status();
                }
            }
        }
        for (char c : token) {
            if (!is_move_char(c)) {
                std::string message(1, '\'');  // built in steps: GCC 12 misreads a + chain here
                message.append(token).append("' is not a move, a move number or a result");
                return fail(message);
            }
        }
        current_.moves.emplace_back(token);
        numbered_ = false;
        return ok_status();
    }

    // A move number "N." (the first side moves next) or "N..." (the second side moves next).
    Status number(std::string_view digits, std::size_t dots) {
        if ((dots != 1 && dots != 3) || digits.size() > 6) {
            return fail("malformed move number '" + std::string(digits) + std::string(dots, '.') +
                        "'");
        }
        const int n = std::stoi(std::string(digits));
        const bool second = dots == 3;
        if (numbered_) {
            return fail("two move numbers in a row");
        }
        numbered_ = true;
        if (current_.moves.empty()) {
            current_.first_move_number = n;
            current_.second_moves_first = second;
            return ok_status();
        }
        const int ply =
            static_cast<int>(current_.moves.size()) + (current_.second_moves_first ? 1 : 0);
        const int expected = current_.first_move_number + ply / 2;
        const bool expected_second = ply % 2 == 1;
        if (n != expected || second != expected_second) {
            return fail("move number " + std::string(digits) + std::string(dots, '.') +
                        " out of sequence (expected " + std::to_string(expected) +
                        (expected_second ? "..." : ".") + ")");
        }
        return ok_status();
    }

    // A `[%clk h:mm:ss.s]` command in a comment is the clock of the move before the comment.
    Status comment_done() {
        const auto at = comment_.find("[%clk");
        if (at == std::string::npos) {
            return ok_status();
        }
        const auto end = comment_.find(']', at);
        const auto text = end == std::string::npos
                              ? std::string_view()
                              : trim(std::string_view(comment_).substr(at + 5, end - at - 5));
        const auto ms = parse_clock_text(text);
        if (!ms) {
            return fail_at(comment_line_, "a [%clk …] command must hold h:mm:ss or h:mm:ss.s");
        }
        if (current_.moves.empty()) {
            return fail_at(comment_line_, "a [%clk …] command before the first move");
        }
        current_.clocks.resize(current_.moves.size());
        current_.clocks.back() = *ms;
        return ok_status();
    }

    Status finish_record(std::string_view token) {
        if (numbered_) {
            return fail("a move number without a move");
        }
        if (!current_.clocks.empty()) {
            current_.clocks.resize(current_.moves.size());
        }
        current_.result = std::string(token);
        if (const auto tag = current_.tag("Result"); tag && *tag != token) {
            return fail("the result token " + std::string(token) +
                        " disagrees with the Result tag \"" + *tag + "\"");
        }
        records_.push_back(std::move(current_));
        current_ = Record{};
        started_ = in_movetext_ = numbered_ = false;
        return ok_status();
    }

    std::vector<Record> records_;
    Record current_;
    std::string comment_;  // the text of the `{…}` comment being read
    int line_ = 0;
    int record_line_ = 0;
    int comment_line_ = 0;
    bool started_ = false;      // the current record has a tag or a token
    bool in_movetext_ = false;  // the current record's movetext has begun
    bool numbered_ = false;     // a move number was read and its move not yet
    bool in_comment_ = false;
};

}  // namespace

Expected<std::vector<Record>> parse_records(std::string_view text) {
    return Parser().run(text);
}

}  // namespace core
