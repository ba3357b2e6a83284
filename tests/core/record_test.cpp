#include "core/record.h"

#include <gtest/gtest.h>

#include <random>

namespace {

using core::parse_records;
using core::Record;

Record sample() {
    Record r;
    r.tags = {{"Event", "Casual game"},
              {"Variant", "chessence"},
              {"White", "Ann"},
              {"Black", "Bob"},
              {"Result", "1-0"}};
    r.moves = {"e3-e4", "a8-a7", "@e1", "c7xd5"};
    r.result = "1-0";
    return r;
}

// The error of parsing `text`, which must fail.
std::string parse_error(std::string_view text) {
    auto parsed = parse_records(text);
    EXPECT_FALSE(parsed.ok()) << "should not parse:\n" << text;
    return parsed.ok() ? "" : parsed.error();
}

TEST(RecordWriter, TagsThenABlankLineThenNumberedMovetext) {
    EXPECT_EQ(core::write_record(sample()),
              "[Event \"Casual game\"]\n"
              "[Variant \"chessence\"]\n"
              "[White \"Ann\"]\n"
              "[Black \"Bob\"]\n"
              "[Result \"1-0\"]\n"
              "\n"
              "1. e3-e4 a8-a7 2. @e1 c7xd5 1-0\n");
}

TEST(RecordWriter, ASecondSideStartIsNumberedWithThreeDots) {
    Record r;
    r.first_move_number = 7;
    r.second_moves_first = true;
    r.moves = {"a8-a7", "e3-e4", "b7-a6"};
    EXPECT_EQ(core::write_record(r), "7... a8-a7 8. e3-e4 b7-a6 *\n");
}

TEST(RecordWriter, LongMovetextIsWrappedAtEightyColumns) {
    Record r;
    for (int i = 0; i < 60; ++i) {
        r.moves.push_back(i % 2 ? "c3xe5xg7" : "b2-c3");
    }
    const auto text = core::write_record(r);
    std::size_t start = 0;
    int lines = 0;
    while (start < text.size()) {
        const auto end = text.find('\n', start);
        EXPECT_LE(end - start, 80u);
        start = end + 1;
        ++lines;
    }
    EXPECT_GT(lines, 3);
}

TEST(RecordRoundTrip, WriteThenParseGivesTheSameRecords) {
    Record second;
    second.tags = {{"Event", "Say \"hi\" \\ back"}, {"FEN", "8/8/8/3bb3/3Q4/8/8/7q w 0 1"}};
    second.first_move_number = 12;
    second.second_moves_first = true;
    for (int i = 0; i < 41; ++i) {
        second.moves.push_back(i % 3 ? "c3xe5xc7" : "a1-b2");
    }
    second.result = "1/2-1/2";
    Record empty;
    const std::vector<Record> records{sample(), second, empty};
    const auto text = core::write_records(records);
    auto parsed = parse_records(text);
    ASSERT_TRUE(parsed.ok()) << parsed.error() << "\n" << text;
    EXPECT_EQ(*parsed, records);
    EXPECT_EQ(core::write_records(*parsed), text);
}

TEST(RecordRoundTrip, ControlCharactersInTagValuesBecomeSpaces) {
    Record r;
    r.tags = {{"Event", "two\nlines\tand tab"}};
    auto parsed = parse_records(core::write_record(r));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(parsed->at(0).tag("Event"), "two lines and tab");
}

TEST(RecordParser, AcceptsCommentsAnnotationsGluedNumbersAndCrlf) {
    const std::string text =
        "% exported by hand\r\n"
        "[Variant \"chesica\"]\r\n"
        "\r\n"
        "1.c3-d4 {a quiet start\n"
        "over two lines} b6-a5 $1 2. d4-e5 ; the rest of this line is ignored 3. x\n"
        "2... a5-b4 0-1\n";
    auto parsed = parse_records(text);
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    ASSERT_EQ(parsed->size(), 1u);
    EXPECT_EQ(parsed->at(0).moves, (std::vector<std::string>{"c3-d4", "b6-a5", "d4-e5", "a5-b4"}));
    EXPECT_EQ(parsed->at(0).result, "0-1");
    EXPECT_EQ(parsed->at(0).tag("Variant"), "chesica");
    EXPECT_FALSE(parsed->at(0).tag("White").has_value());
}

TEST(RecordParser, EmptyTextHasNoRecords) {
    auto parsed = parse_records("\n\n  \n");
    ASSERT_TRUE(parsed.ok());
    EXPECT_TRUE(parsed->empty());
}

TEST(RecordParserErrors, NameTheLineAndTheProblem) {
    EXPECT_EQ(parse_error("[Event \"x\"]\n\n1. a1-b2\n"),
              "line 1: the record starting here has no result token");
    EXPECT_EQ(parse_error("1. a1-b2 b1-c2\n[Event \"x\"]\n*\n"),
              "line 2: a tag pair inside movetext (the record starting at line 1 has no result "
              "token)");
    EXPECT_EQ(parse_error("* \n1. a1-b2 b1-c2 3. c2-d3 *\n"),
              "line 2: move number 3. out of sequence (expected 2.)");
    EXPECT_EQ(parse_error("[Result \"1-0\"]\n\n1. a1-b2 0-1\n"),
              "line 3: the result token 0-1 disagrees with the Result tag \"1-0\"");
    EXPECT_EQ(parse_error("[Event x]\n*\n"),
              "line 1: tag Event: expected a space and a quoted value");
    EXPECT_EQ(parse_error("[Event \"x\"\n*\n"),
              "line 1: a tag pair must end with ']' on the same line");
    EXPECT_EQ(parse_error("[9lives \"x\"]\n*\n"),
              "line 1: a tag name must start with a letter and hold letters, digits or '_'");
    EXPECT_EQ(parse_error("[Event \"x\" \"y\"]\n*\n"),
              "line 1: tag Event: the value must be one quoted string");
    EXPECT_EQ(parse_error("1. a1-b2\n\n{ never closed\n"), "line 3: a '{' comment is never closed");
    EXPECT_EQ(parse_error("1. a1-b2 (1... b1-c2) *\n"),
              "line 1: variations in parentheses are not supported");
    EXPECT_EQ(parse_error("1. a1/b2 *\n"),
              "line 1: 'a1/b2' is not a move, a move number or a result");
    EXPECT_EQ(parse_error("1. 2. a1-b2 *\n"), "line 1: two move numbers in a row");
    EXPECT_EQ(parse_error("1. a1-b2 b1-c2 2. *\n"), "line 1: a move number without a move");
    EXPECT_EQ(parse_error("1.. a1-b2 *\n"), "line 1: malformed move number '1..'");
}

// Damaged text (bytes replaced, cut short) is answered with a line-numbered error or parsed; it
// never crashes, and whatever parses writes back into text that parses to the same records.
TEST(RecordParser, DamagedTextGivesALineNumberedErrorOrRecords) {
    const auto text = core::write_records({sample(), sample()});
    const std::string alphabet = "[]{}();%$\"\\ .-x@*/10\n\r\tabcKm";
    std::mt19937 rng(7);
    for (int round = 0; round < 3000; ++round) {
        std::string damaged = text.substr(0, rng() % (text.size() + 1));
        for (int hits = 1 + static_cast<int>(rng() % 4); hits > 0 && !damaged.empty(); --hits) {
            damaged[rng() % damaged.size()] = alphabet[rng() % alphabet.size()];
        }
        const auto parsed = parse_records(damaged);
        if (!parsed.ok()) {
            EXPECT_EQ(parsed.error().rfind("line ", 0), 0u) << parsed.error();
            continue;
        }
        auto again = parse_records(core::write_records(*parsed));
        ASSERT_TRUE(again.ok()) << again.error() << "\nfrom:\n" << damaged;
        EXPECT_EQ(*again, *parsed) << damaged;
    }
}

TEST(RecordTags, SetTagReplacesOrAppends) {
    Record r = sample();
    r.set_tag("White", "Cy");
    r.set_tag("Date", "2026.11.21");
    EXPECT_EQ(r.tag("White"), "Cy");
    EXPECT_EQ(r.tags.back().name, "Date");
    EXPECT_EQ(r.tags.size(), sample().tags.size() + 1);
}

}  // namespace

namespace {

TEST(RecordClocks, EachMovesClockIsAClkCommentThatReadsBack) {
    core::Record r;
    r.tags = {{"TimeControl", "300+3"}};
    r.moves = {"c3-d4", "b6-a5", "d4-e5"};
    r.clocks = {300000, std::nullopt, 4 * 3600 * 1000 + 5 * 60 * 1000 + 7 * 1000 + 800};
    r.result = "*";
    const auto text = core::write_record(r);
    EXPECT_NE(text.find("1. c3-d4 {[%clk 0:05:00.0]} b6-a5 2. d4-e5 {[%clk 4:05:07.8]} *"),
              std::string::npos)
        << text;
    auto parsed = core::parse_records(text);
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    EXPECT_EQ(parsed->at(0), r);
}

TEST(RecordClocks, ClocksAreReadFromCommentsWrittenByOthers) {
    const std::string text =
        "1. c3-d4 { [%clk 0:00:59] a comment } b6-a5 {[%eval 0.3] [%clk 0:01:02.25]}\n"
        "2. d4-e5 {no clock} *\n";
    auto parsed = core::parse_records(text);
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    EXPECT_EQ(parsed->at(0).clocks,
              (std::vector<std::optional<std::int64_t>>{59000, 62250, std::nullopt}));
    EXPECT_TRUE(core::parse_records("1. c3-d4 b6-a5 *\n")->at(0).clocks.empty());
}

TEST(RecordClocks, MalformedClocksAreErrorsWithTheirLine) {
    for (const char* bad : {"1. c3-d4 {[%clk 5:00]} *\n", "1. c3-d4 {[%clk 0:61:00]} *\n",
                            "1. c3-d4 {[%clk -0:01:00]} *\n", "1. c3-d4 {[%clk 0:01:00.x]} *\n",
                            "{[%clk 0:01:00]} 1. c3-d4 *\n"}) {
        const auto parsed = core::parse_records(bad);
        ASSERT_FALSE(parsed.ok()) << bad;
        EXPECT_NE(parsed.error().find("line 1"), std::string::npos) << parsed.error();
    }
    EXPECT_EQ(core::clock_text(0), "0:00:00.0");
    EXPECT_EQ(core::clock_text(1209600000), "336:00:00.0") << "fourteen days";
    EXPECT_EQ(core::clock_text(99), "0:00:00.0") << "tenths are rounded down";
    EXPECT_EQ(core::parse_clock_text("336:00:00.0"), 1209600000);
}

}  // namespace
