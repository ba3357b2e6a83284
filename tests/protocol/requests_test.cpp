#include "protocol/requests.h"

#include <gtest/gtest.h>

#include <set>

#include "protocol/schema_validator.h"

namespace {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;

// One valid frame of every client message type, as docs/protocol.md shows them.
const std::vector<std::string>& client_examples() {
    static const std::vector<std::string> examples = {
        R"({"type":"hello","protocol":1,"id":1})",
        R"({"type":"hello","protocol":1,"token":"abcdef0123456789abcdef","name":"Ann"})",
        R"({"type":"set_name","name":"  Bob the 2nd ","id":"n1"})",
        R"({"type":"lobby_subscribe"})",
        R"({"type":"lobby_unsubscribe"})",
        R"({"type":"lobby_games","offset":50,"limit":50,"id":"more"})",
        R"({"type":"seek_create","variant":"chessence","rules":"strict","side":"black","private":true})",
        R"({"type":"seek_create","variant":"sniderman","rounds":5})",
        R"({"type":"seek_cancel","seek_id":"s_0123456789ab"})",
        R"({"type":"seek_accept","seek_id":"s_0123456789ab"})",
        R"({"type":"quick_pair","variant":"chesica"})",
        R"({"type":"seek_create","variant":"chesica","clock":{"initial":180,"increment":2}})",
        R"({"type":"quick_pair","variant":"chessence","clock":{"days":3}})",
        R"({"type":"watch","game_id":"g_0123456789ab","since":17})",
        R"({"type":"watch","game_id":"g_0123456789ab","since":3,"full":true})",
        R"({"type":"unwatch","game_id":"g_0123456789ab"})",
        R"({"type":"move","game_id":"g_0123456789ab","move":"e3-e4","id":7})",
        R"({"type":"resign","game_id":"g_0123456789ab"})",
        R"({"type":"draw_offer","game_id":"g_0123456789ab"})",
        R"({"type":"draw_accept","game_id":"g_0123456789ab"})",
        R"({"type":"draw_decline","game_id":"g_0123456789ab"})",
        R"({"type":"rematch_offer","game_id":"g_0123456789ab"})",
        R"({"type":"rematch_accept","game_id":"g_0123456789ab"})",
        R"({"type":"name_object","game_id":"g_0123456789ab","object":4})",
        R"({"type":"choose_side","game_id":"g_0123456789ab","side":"even"})",
        R"({"type":"chat","game_id":"g_0123456789ab","text":"good luck ♞"})",
        R"({"type":"abort","game_id":"g_0123456789ab"})",
        R"({"type":"claim_victory","game_id":"g_0123456789ab"})",
        R"({"type":"claim_draw","game_id":"g_0123456789ab"})",
        R"({"type":"takeback_offer","game_id":"g_0123456789ab"})",
        R"({"type":"takeback_accept","game_id":"g_0123456789ab"})",
        R"({"type":"takeback_decline","game_id":"g_0123456789ab"})",
        R"({"type":"moretime","game_id":"g_0123456789ab"})",
        R"({"type":"spectator_chat","game_id":"g_0123456789ab","open":false})",
        R"({"type":"berserk","game_id":"g_0123456789ab","id":"b1"})",
        R"({"type":"ping","id":"p"})",
        R"({"type":"seek_create","variant":"chesica","rated":true,"rating_min":1400,"rating_max":1800})",
        R"({"type":"quick_pair","variant":"chessence","rated":true})",
        R"({"type":"seek_create","variant":"chessence","opponent":"computer","level":3,"side":"white"})",
        R"({"type":"seek_create","variant":"sniderman","opponent":"human"})",
        R"({"type":"register","username":"ann_k","password":"correct horse"})",
        R"({"type":"login","username":"Ann_K","password":"x"})",
        R"({"type":"logout","everywhere":true})",
        R"({"type":"change_password","password":"old","new_password":"battery staple"})",
        R"({"type":"admin_mute","player_id":"p_0123456789ab","muted":false})",
        R"({"type":"admin_close","player_id":"p_0123456789ab"})",
        R"({"type":"tournament_watch","tournament_id":"t_0123456789ab"})",
        R"({"type":"tournament_unwatch","tournament_id":"t_0123456789ab"})",
        R"({"type":"tournament_join","tournament_id":"t_0123456789ab","code":"s3cret","id":1})",
        R"({"type":"tournament_withdraw","tournament_id":"t_0123456789ab"})",
        R"({"type":"tournament_pause","tournament_id":"t_0123456789ab"})",
        R"({"type":"tournament_chat","tournament_id":"t_0123456789ab","text":"gl hf","id":"c"})",
    };
    return examples;
}

protocol::RequestError error_of(std::string_view text) {
    auto parsed = protocol::parse_request(text);
    EXPECT_TRUE(std::holds_alternative<protocol::RequestError>(parsed)) << text;
    if (auto* error = std::get_if<protocol::RequestError>(&parsed)) {
        return *error;
    }
    return {};
}

protocol::Request request_of(std::string_view text) {
    auto parsed = protocol::parse_request(text);
    EXPECT_TRUE(std::holds_alternative<protocol::Request>(parsed)) << text;
    if (auto* request = std::get_if<protocol::Request>(&parsed)) {
        return *request;
    }
    return {};
}

TEST(ParseRequest, EveryExampleParsesAndMatchesItsSchema) {
    schema::Validator validator(schema::protocol_schema_root());
    std::set<RequestType> seen;
    for (const auto& text : client_examples()) {
        const auto request = request_of(text);
        seen.insert(request.type);
        EXPECT_EQ(protocol::request_type_name(request.type), json::parse(text)["type"]);
        const auto errors = validator.validate_message(json::parse(text), "client");
        EXPECT_TRUE(errors.empty()) << text << ": " << (errors.empty() ? "" : errors[0]);
    }
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(protocol::request_type_count));
}

TEST(ParseRequest, EveryTypeHasASchema) {
    for (int i = 0; i < protocol::request_type_count; ++i) {
        const auto name = protocol::request_type_name(static_cast<RequestType>(i));
        EXPECT_TRUE(std::filesystem::exists(schema::protocol_schema_root() / "client" /
                                            (std::string(name) + ".json")))
            << name;
        EXPECT_EQ(protocol::parse_request_type(name), static_cast<RequestType>(i));
    }
}

TEST(ParseRequest, FieldsAreTyped) {
    const auto seek = request_of(
        R"({"type":"seek_create","variant":"chessence","rules":"strict","side":"black","private":true})");
    EXPECT_EQ(seek.variant, core::VariantId::chessence);
    EXPECT_EQ(seek.rules, core::RuleSet::strict);
    EXPECT_EQ(seek.side, core::Side::second);
    EXPECT_TRUE(seek.is_private);
    const auto watch = request_of(R"({"type":"watch","game_id":"g_1","since":17})");
    EXPECT_EQ(watch.game_id, "g_1");
    EXPECT_EQ(watch.since, 17);
    EXPECT_FALSE(watch.full);
    const auto move = request_of(R"({"type":"move","game_id":"g_1","move":"e3-e4","id":7})");
    EXPECT_EQ(move.move, "e3-e4");
    EXPECT_EQ(move.id, 7);
    const auto choose = request_of(R"({"type":"choose_side","game_id":"g_1","side":"odd"})");
    EXPECT_EQ(choose.side, core::Side::first);
    const auto named = request_of(R"({"type":"set_name","name":"  Bob the 2nd "})");
    EXPECT_EQ(named.name, "Bob the 2nd");
    const auto random = request_of(R"({"type":"seek_create","variant":"chesica","side":"random"})");
    EXPECT_FALSE(random.side.has_value());
    EXPECT_EQ(request_of(R"({"type":"seek_create","variant":"sniderman","rounds":7})").rounds, 7);
    const auto page = request_of(R"({"type":"lobby_games","offset":100,"limit":20})");
    EXPECT_EQ(page.offset, 100);
    EXPECT_EQ(page.limit, 20);
    const auto first = request_of(R"({"type":"lobby_games"})");
    EXPECT_EQ(first.offset, 0);
    EXPECT_EQ(first.limit, protocol::lobby_games_page);
}

TEST(ParseRequest, MalformedJsonIsBadJson) {
    EXPECT_EQ(error_of("{\"type\":").error.code, ErrorCode::bad_json);
    EXPECT_EQ(error_of("").error.code, ErrorCode::bad_json);
    EXPECT_EQ(error_of("[1,2]").error.code, ErrorCode::bad_json);
    EXPECT_EQ(error_of("\"hello\"").error.code, ErrorCode::bad_json);
}

// Issue 23: one JSON value and nothing after it; a NUL byte used to end the text early, so a
// resignation followed by NUL was accepted.
TEST(ParseRequest, ANulOrAnythingAfterTheJsonIsBadJson) {
    const std::string with_nul("{\"type\":\"ping\"}\0", 16);
    ASSERT_EQ(with_nul.size(), 16u);
    EXPECT_EQ(error_of(with_nul).error.code, ErrorCode::bad_json);
    EXPECT_EQ(error_of(std::string("{\"type\":\0\"ping\"}", 17)).error.code, ErrorCode::bad_json);
    EXPECT_EQ(error_of("{\"type\":\"ping\"} {}").error.code, ErrorCode::bad_json);
    EXPECT_EQ(error_of("{\"type\":\"ping\"} x").error.code, ErrorCode::bad_json);
}

// Issue 23: an id of up to 64 characters, not bytes.
TEST(ParseRequest, IdsAreCountedInCharacters) {
    std::string id;
    for (int i = 0; i < 64; ++i) {
        id += "é";
    }
    const auto parsed = protocol::parse_request(json{{"type", "ping"}, {"id", id}}.dump());
    ASSERT_TRUE(std::holds_alternative<protocol::Request>(parsed));
    EXPECT_EQ(std::get<protocol::Request>(parsed).id, id);
    EXPECT_EQ(error_of(json{{"type", "ping"}, {"id", id + "é"}}.dump()).error.code,
              ErrorCode::bad_field);
}

TEST(ParseRequest, UnknownTypeEchoesTheId) {
    const auto error = error_of(R"({"type":"teleport","id":"abc"})");
    EXPECT_EQ(error.error.code, ErrorCode::unknown_type);
    EXPECT_EQ(error.id, "abc");
    EXPECT_NE(error.error.message.find("teleport"), std::string::npos);
}

TEST(ParseRequest, UnknownTypeQuotesWholeCharactersOnly) {
    std::string type = std::string(39, 't') + "é";  // the 40th byte starts a two-byte character
    const auto error = error_of(json{{"type", type}}.dump());
    EXPECT_EQ(error.error.code, ErrorCode::unknown_type);
    EXPECT_NE(error.error.message.find(std::string(39, 't') + "`"), std::string::npos);
    EXPECT_NO_THROW((void)json(error.error.message).dump());
}

TEST(ParseRequest, MissingFieldsAreNamed) {
    auto error = error_of(R"({"id":3})");
    EXPECT_EQ(error.error.code, ErrorCode::missing_field);
    EXPECT_EQ(error.id, 3);
    error = error_of(R"({"type":"move","game_id":"g_1"})");
    EXPECT_EQ(error.error.code, ErrorCode::missing_field);
    EXPECT_NE(error.error.message.find("move"), std::string::npos);
    EXPECT_EQ(error_of(R"({"type":"watch"})").error.code, ErrorCode::missing_field);
    EXPECT_EQ(error_of(R"({"type":"hello"})").error.code, ErrorCode::missing_field);
    EXPECT_EQ(error_of(R"({"type":"seek_create"})").error.code, ErrorCode::missing_field);
    EXPECT_EQ(error_of(R"({"type":"move","game_id":null,"move":"a1-a2"})").error.code,
              ErrorCode::missing_field);
}

TEST(ParseRequest, WrongFieldsAreBadField) {
    const std::vector<std::string> frames = {
        R"({"type":5})",
        R"({"type":"ping","id":{"a":1}})",
        R"({"type":"ping","id":""})",
        R"({"type":"ping","id":"01234567890123456789012345678901234567890123456789012345678901234"})",
        R"({"type":"move","game_id":7,"move":"a1-a2"})",
        R"({"type":"move","game_id":"","move":"a1-a2"})",
        R"({"type":"watch","game_id":"g","since":-1})",
        R"({"type":"watch","game_id":"g","since":1.5})",
        R"({"type":"watch","game_id":"g","full":"yes"})",
        R"({"type":"seek_create","variant":"checkers"})",
        R"({"type":"seek_create","variant":"chessence","rules":"loose"})",
        R"({"type":"seek_create","variant":"chessence","side":"odd"})",
        R"({"type":"seek_create","variant":"sniderman","side":"white"})",
        R"({"type":"seek_create","variant":"sniderman","rounds":4})",
        R"({"type":"seek_create","variant":"sniderman","rounds":11})",
        R"({"type":"name_object","game_id":"g","object":0})",
        R"({"type":"name_object","game_id":"g","object":11})",
        R"({"type":"choose_side","game_id":"g","side":"white"})",
        R"({"type":"chat","game_id":"g","text":""})",
        R"({"type":"hello","protocol":"1"})",
        R"({"type":"lobby_games","offset":-1})",
        R"({"type":"lobby_games","limit":0})",
        R"({"type":"lobby_games","limit":101})",
    };
    for (const auto& frame : frames) {
        EXPECT_EQ(error_of(frame).error.code, ErrorCode::bad_field) << frame;
    }
}

TEST(ParseRequest, ChatLengthCountsCharacters) {
    const std::string at_limit(300, 'x');
    std::string multibyte;
    for (int i = 0; i < 300; ++i) {
        multibyte += "♞";
    }
    EXPECT_EQ(request_of(json{{"type", "chat"}, {"game_id", "g"}, {"text", at_limit}}.dump()).text,
              at_limit);
    EXPECT_EQ(request_of(json{{"type", "chat"}, {"game_id", "g"}, {"text", multibyte}}.dump()).text,
              multibyte);
    const auto error = error_of(
        json{{"type", "chat"}, {"game_id", "g"}, {"text", at_limit + "y"}, {"id", 9}}.dump());
    EXPECT_EQ(error.error.code, ErrorCode::chat_too_long);
    // The spectators' chat switch says which way.
    EXPECT_FALSE(request_of(R"({"type":"spectator_chat","game_id":"g","open":false})").open);
    EXPECT_EQ(error_of(R"({"type":"spectator_chat","game_id":"g"})").error.code,
              ErrorCode::missing_field);
    EXPECT_EQ(error_of(R"({"type":"spectator_chat","game_id":"g","open":"no"})").error.code,
              ErrorCode::bad_field);
    EXPECT_EQ(error.id, 9);
}

TEST(ParseRequest, AGameRequestsErrorNamesItsGame) {
    const auto too_long = error_of(
        json{{"type", "chat"}, {"game_id", "g_1"}, {"text", std::string(301, 'x')}}.dump());
    EXPECT_EQ(too_long.error.code, ErrorCode::chat_too_long);
    EXPECT_EQ(too_long.game_id, "g_1");
    EXPECT_EQ(error_of(R"({"type":"name_object","game_id":"g_2","object":11})").game_id, "g_2");
    EXPECT_EQ(error_of(R"({"type":"spectator_chat","game_id":"g_3"})").game_id, "g_3");
    // Without a readable game id, or for a request about no game, none.
    EXPECT_EQ(error_of(R"({"type":"move","game_id":7,"move":"e3-e4"})").game_id, "");
    EXPECT_EQ(error_of(R"({"type":"set_name","name":7})").game_id, "");
}

TEST(ValidateName, TrimsAndChecks) {
    EXPECT_EQ(std::get<std::string>(protocol::validate_name("  Ann ")), "Ann");
    EXPECT_EQ(std::get<std::string>(protocol::validate_name("a_b-c.d 9")), "a_b-c.d 9");
    EXPECT_EQ(std::get<std::string>(protocol::validate_name(std::string(20, 'z'))),
              std::string(20, 'z'));
    for (std::string bad :
         {"", "   ", "<script>", "tab\there", "Ünïcode", "123456789012345678901"}) {
        auto checked = protocol::validate_name(bad);
        ASSERT_TRUE(std::holds_alternative<protocol::ProtocolError>(checked)) << bad;
        EXPECT_EQ(std::get<protocol::ProtocolError>(checked).code, ErrorCode::bad_name);
    }
    EXPECT_EQ(error_of(R"({"type":"set_name","name":"a/b"})").error.code, ErrorCode::bad_name);
}

TEST(Utf8Length, CountsCodePoints) {
    EXPECT_EQ(protocol::utf8_length(""), 0u);
    EXPECT_EQ(protocol::utf8_length("abc"), 3u);
    EXPECT_EQ(protocol::utf8_length("é♞𝄞"), 3u);
}

TEST(ParseRequest, AccountRequestsReadTheirFields) {
    const auto reg =
        request_of(R"({"type":"register","username":"ann_k","password":"correct horse"})");
    EXPECT_EQ(reg.type, RequestType::register_account);
    EXPECT_EQ(reg.username, "ann_k");
    EXPECT_EQ(reg.password, "correct horse");
    EXPECT_TRUE(request_of(R"({"type":"logout","everywhere":true})").everywhere);
    EXPECT_FALSE(request_of(R"({"type":"admin_mute","player_id":"p_1","muted":false})").muted);
    const auto seek =
        request_of(R"({"type":"seek_create","variant":"chesica","rated":true,"rating_max":1800})");
    EXPECT_TRUE(seek.rated);
    EXPECT_FALSE(seek.rating_min.has_value());
    EXPECT_EQ(seek.rating_max, 1800);
    EXPECT_FALSE(request_of(R"({"type":"quick_pair","variant":"chesica"})").rated);
}

TEST(ParseRequest, BadAccountFieldsGetTheirCodes) {
    using protocol::ErrorCode;
    EXPECT_EQ(
        error_of(R"({"type":"register","username":"ab","password":"long enough"})").error.code,
        ErrorCode::bad_name);
    EXPECT_EQ(
        error_of(R"({"type":"register","username":"a b c","password":"long enough"})").error.code,
        ErrorCode::bad_name);
    EXPECT_EQ(error_of(R"({"type":"register","username":"ann","password":"seven77"})").error.code,
              ErrorCode::weak_password);
    // Eight code points, more bytes: long enough.
    request_of(R"({"type":"register","username":"ann","password":"ééééééé1"})");
    EXPECT_EQ(error_of(R"({"type":"login","username":"ann"})").error.code,
              ErrorCode::missing_field);
    EXPECT_EQ(
        error_of(R"({"type":"change_password","password":"x","new_password":"short"})").error.code,
        ErrorCode::weak_password);
    EXPECT_EQ(error_of(R"({"type":"admin_close","player_id":7})").error.code, ErrorCode::bad_field);
    EXPECT_EQ(
        error_of(
            R"({"type":"seek_create","variant":"chessence","rating_min":1800,"rating_max":1700})")
            .error.code,
        ErrorCode::bad_field);
    EXPECT_EQ(
        error_of(R"({"type":"seek_create","variant":"chessence","rating_min":-5})").error.code,
        ErrorCode::bad_field);
    EXPECT_EQ(error_of(R"({"type":"seek_create","variant":"chessence","rated":"yes"})").error.code,
              ErrorCode::bad_field);
    EXPECT_EQ(error_of(R"({"type":"register","username":"ann","password":")" +
                       std::string(300, 'x') + R"("})")
                  .error.code,
              ErrorCode::bad_field);
}

// Issue 25: seek_create against the computer needs a level 1-8 and is casual, public and without
// a rating range; a level without the computer is refused too.
TEST(ParseRequest, ComputerOpponentNeedsALevelAndIsCasual) {
    const auto computer =
        request_of(R"({"type":"seek_create","variant":"chesica","opponent":"computer","level":8})");
    EXPECT_TRUE(computer.computer);
    EXPECT_EQ(computer.level, 8);
    const auto human = request_of(R"({"type":"seek_create","variant":"chesica"})");
    EXPECT_FALSE(human.computer);
    EXPECT_FALSE(
        request_of(R"({"type":"seek_create","variant":"chesica","opponent":"human"})").computer);
    EXPECT_EQ(error_of(R"({"type":"seek_create","variant":"chessence","opponent":"computer"})")
                  .error.code,
              ErrorCode::missing_field);
    const std::vector<std::string> refused = {
        R"({"type":"seek_create","variant":"chessence","opponent":"computer","level":0})",
        R"({"type":"seek_create","variant":"chessence","opponent":"computer","level":9})",
        R"({"type":"seek_create","variant":"chessence","opponent":"computer","level":"3"})",
        R"({"type":"seek_create","variant":"chessence","opponent":"robot","level":3})",
        R"({"type":"seek_create","variant":"chessence","opponent":"human","level":3})",
        R"({"type":"seek_create","variant":"chessence","level":3})",
        R"({"type":"seek_create","variant":"chessence","opponent":"computer","level":3,"private":true})",
        R"({"type":"seek_create","variant":"chessence","opponent":"computer","level":3,"rating_min":1000})",
    };
    for (const auto& bad : refused) {
        EXPECT_EQ(error_of(bad).error.code, ErrorCode::bad_field) << bad;
    }
    const auto rated = error_of(
        R"({"type":"seek_create","variant":"chessence","opponent":"computer","level":3,"rated":true})");
    EXPECT_EQ(rated.error.code, ErrorCode::bad_field);
    EXPECT_EQ(rated.error.message, "games against the computer are casual");
}

}  // namespace

TEST(ParseRequest, TournamentRequestsReadTheirFields) {
    const auto join = request_of(
        R"({"type":"tournament_join","tournament_id":"t_0123456789ab","code":"s3cret"})");
    EXPECT_EQ(join.type, RequestType::tournament_join);
    EXPECT_EQ(join.tournament_id, "t_0123456789ab");
    EXPECT_EQ(join.code, "s3cret");
    EXPECT_TRUE(protocol::is_tournament_request(join.type));
    EXPECT_FALSE(protocol::is_tournament_request(RequestType::watch));
    EXPECT_EQ(error_of(R"({"type":"tournament_watch"})").error.code,
              protocol::ErrorCode::missing_field);
    EXPECT_EQ(error_of(R"({"type":"tournament_join","tournament_id":7})").error.code,
              protocol::ErrorCode::bad_field);
    EXPECT_EQ(error_of(R"({"type":"tournament_join","tournament_id":"t_1","code":")" +
                       std::string(65, 'x') + R"("})")
                  .error.code,
              protocol::ErrorCode::bad_field);
}

// A tournament's chat line: its text within a game chat's limits, the same codes.
TEST(ParseRequest, ATournamentChatLineReadsItsTextAsAGamesChatDoes) {
    const auto said =
        request_of(R"({"type":"tournament_chat","tournament_id":"t_1","text":"gl hf"})");
    EXPECT_EQ(said.type, RequestType::tournament_chat);
    EXPECT_TRUE(protocol::is_tournament_request(said.type));
    EXPECT_EQ(said.tournament_id, "t_1");
    EXPECT_EQ(said.text, "gl hf");
    EXPECT_EQ(error_of(R"({"type":"tournament_chat","tournament_id":"t_1"})").error.code,
              protocol::ErrorCode::missing_field);
    EXPECT_EQ(error_of(R"({"type":"tournament_chat","text":"hi"})").error.code,
              protocol::ErrorCode::missing_field);
    EXPECT_EQ(error_of(R"({"type":"tournament_chat","tournament_id":"t_1","text":""})").error.code,
              protocol::ErrorCode::bad_field);
    EXPECT_EQ(error_of(R"({"type":"tournament_chat","tournament_id":"t_1","text":")" +
                       std::string(protocol::max_chat_length + 1, 'x') + R"("})")
                  .error.code,
              protocol::ErrorCode::chat_too_long);
}
