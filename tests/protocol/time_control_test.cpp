// Time controls: the protocol's `clock` field with its ranges, and the TimeControl text of records
// and the store, both ways.
#include "protocol/time_control.h"

#include <gtest/gtest.h>

#include "protocol/requests.h"

namespace {

using nlohmann::json;
using protocol::ClockKind;
using protocol::TimeControl;

std::variant<TimeControl, protocol::ProtocolError> read(const json& value) {
    return protocol::read_time_control(&value);
}

std::string time_control_error(const json& value) {
    auto read_back = read(value);
    const auto* error = std::get_if<protocol::ProtocolError>(&read_back);
    if (!error) {
        ADD_FAILURE() << value.dump() << " was accepted";
        return "";
    }
    EXPECT_EQ(error->code, protocol::ErrorCode::bad_field);
    return error->message;
}

TEST(TimeControl, ReadsRealTimeCorrespondenceAndUnlimited) {
    EXPECT_EQ(std::get<TimeControl>(read(json(nullptr))), TimeControl{});
    EXPECT_EQ(std::get<TimeControl>(protocol::read_time_control(nullptr)), TimeControl{});
    const auto blitz = std::get<TimeControl>(read({{"initial", 300}, {"increment", 3}}));
    EXPECT_EQ(blitz, (TimeControl{ClockKind::real_time, 300, 3, 0}));
    EXPECT_EQ(blitz.initial_ms(), 300000);
    EXPECT_EQ(blitz.increment_ms(), 3000);
    const auto days = std::get<TimeControl>(read({{"days", 7}}));
    EXPECT_EQ(days, (TimeControl{ClockKind::correspondence, 0, 0, 7}));
    EXPECT_EQ(days.initial_ms(), 7LL * 86400 * 1000);
    // The bounds themselves are allowed: 15 s exactly, 0 + 40 × 1 s is not enough.
    EXPECT_EQ(std::get<TimeControl>(read({{"initial", 15}, {"increment", 0}})).initial_seconds, 15);
    EXPECT_EQ(std::get<TimeControl>(read({{"initial", 0}, {"increment", 1}})).kind,
              ClockKind::real_time)
        << "0 + 40 × 1 = 40 s";
    EXPECT_EQ(std::get<TimeControl>(read({{"initial", 10800}, {"increment", 180}})).initial_seconds,
              10800);
}

TEST(TimeControl, RefusesEverythingElseSayingTheRange) {
    EXPECT_NE(time_control_error({{"initial", 14}, {"increment", 0}}).find("at least 15 seconds"),
              std::string::npos);
    EXPECT_NE(time_control_error({{"initial", 10801}, {"increment", 0}}).find("0 to 10800"),
              std::string::npos);
    EXPECT_NE(time_control_error({{"initial", -1}, {"increment", 5}}).find("0 to 10800"),
              std::string::npos);
    EXPECT_NE(time_control_error({{"initial", 60}, {"increment", 181}}).find("0 to 180"),
              std::string::npos);
    EXPECT_NE(time_control_error({{"initial", 60.5}, {"increment", 0}}).find("whole number"),
              std::string::npos);
    EXPECT_NE(time_control_error({{"initial", 60}}).find("increment"), std::string::npos);
    EXPECT_NE(time_control_error({{"days", 4}}).find("1, 2, 3, 5, 7, 10 or 14"), std::string::npos);
    EXPECT_NE(time_control_error({{"days", "3"}}).find("1, 2, 3, 5, 7, 10 or 14"),
              std::string::npos);
    EXPECT_NE(time_control_error({{"days", 3}, {"initial", 60}}).find("{\"days\": N}"),
              std::string::npos);
    EXPECT_NE(time_control_error(json::object()).find("or null"), std::string::npos);
    EXPECT_NE(time_control_error("5+3").find("or null"), std::string::npos);
}

TEST(TimeControl, TextRoundTrips) {
    const std::vector<std::pair<TimeControl, std::string>> cases = {
        {TimeControl{}, "-"},
        {TimeControl{ClockKind::real_time, 300, 3, 0}, "300+3"},
        {TimeControl{ClockKind::real_time, 15, 0, 0}, "15+0"},
        {TimeControl{ClockKind::correspondence, 0, 0, 3}, "1/259200"},
        {TimeControl{ClockKind::correspondence, 0, 0, 14}, "1/1209600"},
    };
    for (const auto& [control, text] : cases) {
        EXPECT_EQ(protocol::time_control_text(control), text);
        auto back = protocol::parse_time_control(text);
        ASSERT_TRUE(back.ok()) << text << ": " << back.error();
        EXPECT_EQ(*back, control) << text;
    }
    EXPECT_EQ(*protocol::parse_time_control(""), TimeControl{}) << "older games: unlimited";
    for (const char* bad : {"300", "300+", "+3", "1/100", "1/345600", "x+3", "300+3 ", "-1+0"}) {
        EXPECT_FALSE(protocol::parse_time_control(bad).ok()) << bad;
    }
}

TEST(TimeControl, SeekAndQuickPairCarryTheClock) {
    auto parsed = protocol::parse_request(
        R"({"type":"seek_create","variant":"chesica","clock":{"initial":180,"increment":2}})");
    ASSERT_TRUE(std::holds_alternative<protocol::Request>(parsed));
    EXPECT_EQ(std::get<protocol::Request>(parsed).clock,
              (TimeControl{ClockKind::real_time, 180, 2, 0}));
    parsed = protocol::parse_request(
        R"({"type":"quick_pair","variant":"chessence","clock":{"days":2},"id":4})");
    ASSERT_TRUE(std::holds_alternative<protocol::Request>(parsed));
    EXPECT_EQ(std::get<protocol::Request>(parsed).clock.days, 2);
    parsed = protocol::parse_request(
        R"({"type":"seek_create","variant":"chesica","clock":{"initial":5,"increment":0},"id":9})");
    ASSERT_TRUE(std::holds_alternative<protocol::RequestError>(parsed));
    const auto& error = std::get<protocol::RequestError>(parsed);
    EXPECT_EQ(error.error.code, protocol::ErrorCode::bad_field);
    EXPECT_EQ(error.id, 9);
    EXPECT_NE(error.error.message.find("15 seconds"), std::string::npos);
}

TEST(TimeControl, TheNewGameRequestsNeedAGame) {
    for (const char* type : {"abort", "claim_victory", "claim_draw", "takeback_offer",
                             "takeback_accept", "takeback_decline", "moretime"}) {
        auto parsed = protocol::parse_request(std::string(R"({"type":")") + type + R"("})");
        ASSERT_TRUE(std::holds_alternative<protocol::RequestError>(parsed)) << type;
        EXPECT_EQ(std::get<protocol::RequestError>(parsed).error.code,
                  protocol::ErrorCode::missing_field);
        parsed =
            protocol::parse_request(std::string(R"({"type":")") + type + R"(","game_id":"g_1"})");
        ASSERT_TRUE(std::holds_alternative<protocol::Request>(parsed)) << type;
        EXPECT_EQ(std::get<protocol::Request>(parsed).game_id, "g_1");
        EXPECT_EQ(protocol::request_type_name(std::get<protocol::Request>(parsed).type), type);
    }
}

}  // namespace
