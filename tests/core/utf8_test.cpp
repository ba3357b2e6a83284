#include "core/utf8.h"

#include <gtest/gtest.h>

#include "core/chesica/notation.h"
#include "core/chessence/notation.h"
#include "core/chessence/position.h"

namespace {

TEST(Utf8, ValidTextIsUnchanged) {
    EXPECT_EQ(core::valid_utf8("e3-e4 é € 𝄞"), "e3-e4 é € 𝄞");
    EXPECT_EQ(core::valid_utf8(""), "");
}

TEST(Utf8, BrokenSequencesBecomeReplacementCharacters) {
    const std::string fffd = "\xEF\xBF\xBD";
    EXPECT_EQ(core::valid_utf8("a\xC3"), "a" + fffd);                 // cut
    EXPECT_EQ(core::valid_utf8("\xA9x"), fffd + "x");                 // stray continuation
    EXPECT_EQ(core::valid_utf8("\xC0\xAF"), fffd + fffd);             // overlong
    EXPECT_EQ(core::valid_utf8("\xED\xA0\x80"), fffd + fffd + fffd);  // surrogate
    EXPECT_EQ(core::valid_utf8("\xF4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // > U+10FFFF
}

TEST(Utf8, SpansWidenToWholeCharacters) {
    const std::string text = "aé-b";  // a, é (2 bytes), -, b
    EXPECT_EQ(core::utf8_span(text, 0, 2), "aé");
    EXPECT_EQ(core::utf8_span(text, 2, 1), "é");
    EXPECT_EQ(core::utf8_span(text, 9, 1), "");
    EXPECT_EQ(core::utf8_char_length(text, 1), 2u);
    EXPECT_EQ(core::utf8_char_length("\xFF", 0), 1u);
}

// Every parser that quotes untrusted text keeps its message valid UTF-8.
TEST(Utf8, ErrorMessagesAreAlwaysValidUtf8) {
    for (const char* fen : {"km4/\xC3\xA9", "\xFF w 0 1"}) {
        const auto chessence = core::chessence::parse_move(core::chessence::start_position(), fen);
        ASSERT_FALSE(chessence);
        EXPECT_EQ(core::valid_utf8(chessence.error()), chessence.error());
    }
    const auto chesica = core::chesica::parse_move_squares("aé");
    ASSERT_FALSE(chesica);
    EXPECT_EQ(core::valid_utf8(chesica.error()), chesica.error());
    EXPECT_NE(chesica.error().find("'aé'"), std::string::npos) << chesica.error();
}

}  // namespace
