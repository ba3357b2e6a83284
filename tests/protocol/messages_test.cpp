#include "protocol/messages.h"

#include <gtest/gtest.h>

#include "protocol/schema_validator.h"

namespace {

using nlohmann::json;
using protocol::ErrorCode;

class Messages : public ::testing::Test {
protected:
    // Parses a built frame and checks it against its server schema.
    json valid(const std::string& frame) {
        const auto message = json::parse(frame, nullptr, false);
        EXPECT_FALSE(message.is_discarded()) << frame;
        const auto errors = validator_.validate_message(message, "server");
        EXPECT_TRUE(errors.empty()) << frame << ": " << (errors.empty() ? "" : errors[0]);
        return message;
    }

    schema::Validator validator_{schema::protocol_schema_root()};
    const protocol::PlayerInfo ann_{"p_0123456789ab", "Ann"};
    const json seek_ = {
        {"seek_id", "s_1"},         {"variant", "chesica"},
        {"rules", "house"},         {"side", "random"},
        {"private", false},         {"creator", {{"id", "p_1"}, {"name", "Ann"}}},
        {"created_at", 1700000000}, {"clock", {{"initial", 180}, {"increment", 2}}}};
};

TEST_F(Messages, WelcomeCarriesTokenAndGames) {
    const auto m = valid(protocol::welcome_message(ann_, "0123456789abcdef0123", {"g_1"}, 1));
    EXPECT_EQ(m["type"], "welcome");
    EXPECT_EQ(m["protocol"], 1);
    EXPECT_EQ(m["player"]["name"], "Ann");
    EXPECT_EQ(m["games"], json::array({"g_1"}));
    EXPECT_EQ(m["id"], 1);
}

TEST_F(Messages, ErrorEchoesIdAndGame) {
    auto m = valid(protocol::error_message(ErrorCode::illegal_move, "no", "x", "g_1"));
    EXPECT_EQ(m["code"], "illegal_move");
    EXPECT_EQ(m["id"], "x");
    EXPECT_EQ(m["game_id"], "g_1");
    m = valid(protocol::error_message(ErrorCode::bad_json, "bad", nullptr));
    EXPECT_FALSE(m.contains("id"));
    EXPECT_FALSE(m.contains("game_id"));
}

TEST_F(Messages, LobbyAndSeeks) {
    const json summary = {{"game_id", "g_1"}, {"variant", "chessence"},
                          {"rules", "house"}, {"players", {{"white", "Ann"}, {"black", "Bob"}}},
                          {"moves", 3},       {"spectators", 1},
                          {"clock", nullptr}};
    const auto lobby =
        valid(protocol::lobby_message(json::array({seek_}), json::array({summary}), 7, nullptr));
    EXPECT_EQ(lobby["seeks"][0]["seek_id"], "s_1");
    EXPECT_EQ(lobby["games_total"], 7);
    const auto page = valid(protocol::lobby_games_message(50, 51, json::array({summary}), "p"));
    EXPECT_EQ(page["offset"], 50);
    EXPECT_EQ(page["total"], 51);
    EXPECT_EQ(page["id"], "p");
    EXPECT_EQ(valid(protocol::seek_added_message(seek_))["seek"], seek_);
    EXPECT_EQ(valid(protocol::seek_removed_message("s_1"))["seek_id"], "s_1");
    EXPECT_EQ(valid(protocol::game_added_message(summary))["game"], summary);
    EXPECT_EQ(valid(protocol::game_removed_message("g_1"))["game_id"], "g_1");
    EXPECT_EQ(valid(protocol::game_changed_message(json::array({summary})))["games"][0], summary);
    EXPECT_EQ(valid(protocol::seek_created_message(seek_, 4))["seek"], seek_);
    EXPECT_EQ(valid(protocol::seek_cancelled_message("s_1", nullptr))["seek_id"], "s_1");
}

TEST_F(Messages, SmallPushes) {
    const auto started = valid(
        protocol::game_started_message("g_1", core::VariantId::sniderman, "player1", nullptr));
    EXPECT_EQ(started["variant"], "sniderman");
    EXPECT_EQ(started["you"], "player1");
    EXPECT_EQ(valid(protocol::spectators_message("g_1", 3))["count"], 3);
    EXPECT_EQ(valid(protocol::pong_message("z"))["id"], "z");
    EXPECT_EQ(valid(protocol::player_message(ann_, nullptr))["player"]["id"], ann_.id);
}

TEST_F(Messages, EventEmbedsTheStoredObjectVerbatim) {
    const std::string stored = R"({"kind":"draw_offered","by":"white"})";
    const auto frame = protocol::event_message("g_1", 12, stored);
    EXPECT_NE(frame.find(stored), std::string::npos);
    const auto m = valid(frame);
    EXPECT_EQ(m["version"], 12);
    EXPECT_EQ(m["event"]["kind"], "draw_offered");
    // The head is written as the JSON library writes it, with the event last.
    EXPECT_EQ(protocol::event_message("g_\"1", 7, stored),
              R"({"game_id":"g_\"1","type":"event","version":7,"event":)" + stored + "}");
}

TEST_F(Messages, BoardJsonKeepsTheLayout) {
    core::BoardView board;
    board.files = 2;
    board.ranks = 1;
    board.squares = {"K", "*"};
    board.reserves = {3, 1};
    const auto j = protocol::board_json(board);
    EXPECT_EQ(j["squares"], json::array({"K", "*"}));
    EXPECT_EQ(j["reserves"], json::array({3, 1}));
    EXPECT_TRUE(validator_.validate(j, "defs/board.json").empty());
}

TEST_F(Messages, OutcomeNamesTheWinnerBySide) {
    const auto won = protocol::outcome_json(core::VariantId::chesica,
                                            core::Outcome{core::Side::second, "all_captured"});
    EXPECT_EQ(won, (json{{"winner", "black"}, {"reason", "all_captured"}}));
    const auto drawn = protocol::outcome_json(core::VariantId::chessence,
                                              core::Outcome{std::nullopt, "threefold_repetition"});
    EXPECT_TRUE(drawn["winner"].is_null());
    EXPECT_TRUE(validator_.validate(won, "defs/result.json").empty());
}

}  // namespace
