#pragma once
// Reading a stored JSON object field by field (a game's events, protocol/events.cpp; an arena's,
// server/tournament/arena_json.cpp): each read returns the field or, when it is missing or of
// another type, a default and notes the problem — the first one is kept, so that a caller reads
// every field and then asks error() once.
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace protocol {

class FieldReader {
public:
    explicit FieldReader(const nlohmann::json& object) : object_(object) {}

    std::string string(const char* key) {
        const nlohmann::json* value = find(key);
        if (value && value->is_string()) {
            return value->get<std::string>();
        }
        fail(key, "a string");
        return {};
    }

    bool boolean(const char* key) {
        const nlohmann::json* value = find(key);
        if (value && value->is_boolean()) {
            return value->get<bool>();
        }
        fail(key, "true or false");
        return false;
    }

    // A whole number in [low, high] (`what` says what it must be), or nothing.
    std::optional<std::int64_t> whole(const char* key, std::int64_t low, std::int64_t high,
                                      const char* what = "a whole number") {
        const nlohmann::json* value = find(key);
        if (value && value->is_number_unsigned()) {
            const auto n = value->get<std::uint64_t>();
            if (n <= static_cast<std::uint64_t>(high) &&
                (low <= 0 || n >= static_cast<std::uint64_t>(low))) {
                return static_cast<std::int64_t>(n);
            }
        } else if (value && value->is_number_integer()) {
            const auto n = value->get<std::int64_t>();
            if (n >= low && n <= high) {
                return n;
            }
        }
        fail(key, what);
        return std::nullopt;
    }

    // The value at `key`, which must be present (of any type).
    const nlohmann::json* present(const char* key) {
        const nlohmann::json* value = find(key);
        if (!value) {
            fail_with(std::string("`") + key + "` is missing");
        }
        return value;
    }

    void fail_with(std::string message) {
        if (!error_) {
            error_ = std::move(message);
        }
    }

    const std::optional<std::string>& error() const { return error_; }

protected:
    const nlohmann::json* find(const char* key) const {
        const auto it = object_.find(key);
        return it == object_.end() ? nullptr : &*it;
    }

    // "`key` is missing" or "`key` must be <what>".
    void fail(const char* key, const char* what) {
        fail_with(std::string("`") + key +
                  (find(key) ? "` must be " + std::string(what) : std::string("` is missing")));
    }

    const nlohmann::json& object_;

private:
    std::optional<std::string> error_;
};

}  // namespace protocol
