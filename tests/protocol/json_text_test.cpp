// The JSON text written straight into a string (json_text.h) is byte for byte what the JSON
// library writes (to_text): for every single byte, for escapes among plain text, and for random
// strings mixing quotes, backslashes, control characters, UTF-8 and invalid bytes.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "protocol/json_text.h"
#include "protocol/messages.h"

namespace {

std::string written(std::string_view text) {
    std::string out = "prefix";
    protocol::append_json_string(out, text);
    EXPECT_EQ(out.substr(0, 6), "prefix") << "what was there before is kept";
    return out.substr(6);
}

std::string library(std::string_view text) {
    return protocol::to_text(nlohmann::json(text));
}

TEST(JsonText, EveryByteAloneAndAmongText) {
    for (int b = 0; b < 256; ++b) {
        const std::string alone(1, static_cast<char>(b));
        EXPECT_EQ(written(alone), library(alone)) << "byte " << b;
        const std::string among = "ab" + alone + "cd";
        EXPECT_EQ(written(among), library(among)) << "byte " << b;
    }
}

TEST(JsonText, RandomStringsAsTheLibraryWritesThem) {
    std::mt19937 rng(11);
    const std::vector<std::string> pieces = {"a", "Nf3", "\"",   "\\",   "\n", "\t", "\x01", "\x1f",
                                             "é", "♞",   "\xff", "\xc3", " ",  "/",  "\x7f"};
    for (int i = 0; i < 2000; ++i) {
        std::string text;
        const int length = std::uniform_int_distribution<int>(0, 12)(rng);
        for (int k = 0; k < length; ++k) {
            text += pieces[std::uniform_int_distribution<std::size_t>(0, pieces.size() - 1)(rng)];
        }
        ASSERT_EQ(written(text), library(text)) << "case " << i;
    }
}

TEST(JsonText, AStringArrayIsTheLibrarysArray) {
    const std::vector<std::string> items = {"e2e4", "", "a\"b", "é"};
    std::string out;
    protocol::append_string_array(out, items);
    EXPECT_EQ(out, protocol::to_text(nlohmann::json(items)));
    out.clear();
    protocol::append_string_array(out, {});
    EXPECT_EQ(out, "[]");
}

}  // namespace
