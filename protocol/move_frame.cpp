// The move frame read without a JSON tree (requests.h, read_move_frame): the frame every move
// sends, {"type":"move","game_id":…,"move":…} with an optional "id", is most of what a server
// reads, and building a tree for it cost more than deciding the move.
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

#include "protocol/limits.h"
#include "protocol/requests.h"

namespace protocol {

namespace {

// A cursor over the frame; every read fails (nullopt) on anything the fast road does not take.
class Scanner {
public:
    explicit Scanner(std::string_view text) : text_(text) {}

    void skip_space() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' ||
                                      text_[at_] == '\n' || text_[at_] == '\r')) {
            ++at_;
        }
    }
    bool take(char c) {
        skip_space();
        if (at_ < text_.size() && text_[at_] == c) {
            ++at_;
            return true;
        }
        return false;
    }
    bool at_end() {
        skip_space();
        return at_ == text_.size();
    }
    bool next_is(char c) {
        skip_space();
        return at_ < text_.size() && text_[at_] == c;
    }
    // A string of printable ASCII without escapes (its bytes are its value).
    std::optional<std::string_view> plain_string() {
        if (!take('"')) {
            return std::nullopt;
        }
        const std::size_t start = at_;
        while (at_ < text_.size()) {
            const char c = text_[at_];
            if (c == '"') {
                ++at_;
                return text_.substr(start, at_ - 1 - start);
            }
            if (c < 0x20 || c > 0x7e || c == '\\') {
                return std::nullopt;
            }
            ++at_;
        }
        return std::nullopt;
    }
    // An integer as JSON writes one (no leading zero, fraction or exponent), as the JSON library
    // would hold it: unsigned when not negative.
    std::optional<nlohmann::json> plain_integer() {
        skip_space();
        const std::size_t start = at_;
        if (at_ < text_.size() && text_[at_] == '-') {
            ++at_;
        }
        const std::size_t digits = at_;
        while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') {
            ++at_;
        }
        const std::size_t count = at_ - digits;
        if (count == 0 || count > 18 || (text_[digits] == '0' && count > 1)) {
            return std::nullopt;
        }
        if (at_ < text_.size() && (text_[at_] == '.' || text_[at_] == 'e' || text_[at_] == 'E')) {
            return std::nullopt;
        }
        std::int64_t value = 0;
        std::from_chars(text_.data() + start, text_.data() + at_, value);
        if (text_[start] == '-') {
            return nlohmann::json(value);
        }
        return nlohmann::json(static_cast<std::uint64_t>(value));
    }

private:
    std::string_view text_;
    std::size_t at_ = 0;
};

bool fits(std::string_view text, std::size_t max_length) {
    return !text.empty() && text.size() <= max_length;
}

}  // namespace

std::optional<Request> read_move_frame(std::string_view text) {
    Scanner in(text);
    if (!in.take('{')) {
        return std::nullopt;
    }
    std::optional<std::string_view> type, game_id, move;
    bool has_id = false;
    Request request;
    do {
        const auto key = in.plain_string();
        if (!key || !in.take(':')) {
            return std::nullopt;
        }
        if (*key == "id") {
            if (has_id) {
                return std::nullopt;
            }
            has_id = true;
            if (in.next_is('"')) {
                const auto id = in.plain_string();
                if (!id || !fits(*id, max_id_length)) {
                    return std::nullopt;
                }
                request.id = std::string(*id);
            } else if (auto id = in.plain_integer()) {
                request.id = std::move(*id);
            } else {
                return std::nullopt;
            }
            continue;
        }
        std::optional<std::string_view>* slot = *key == "type"      ? &type
                                                : *key == "game_id" ? &game_id
                                                : *key == "move"    ? &move
                                                                    : nullptr;
        if (!slot || *slot) {
            return std::nullopt;  // another key, or one given twice
        }
        *slot = in.plain_string();
        if (!*slot) {
            return std::nullopt;
        }
    } while (in.take(','));
    if (!in.take('}') || !in.at_end() || type != "move" || !game_id || !move ||
        !fits(*game_id, max_ref_length) || !fits(*move, max_move_length)) {
        return std::nullopt;
    }
    request.type = RequestType::move;
    request.game_id = std::string(*game_id);
    request.move = std::string(*move);
    return request;
}

}  // namespace protocol
