// Every refusal a room gives leaves the game exactly as it was (snapshot before == after).
#include "server/game/room.h"

#include <gtest/gtest.h>

#include "server/game_table.h"

namespace {

using test::json;

class RoomErrors : public ::testing::Test {
protected:
    // Sends `request` from `client`, expects error `code` echoing the id, and an unchanged game.
    void expect_refused(test::WsClient& client, json request, const std::string& code) {
        const auto before = table_.snapshot(*table_.sam);
        std::string id = "e";
        id += std::to_string(++count_);
        request["id"] = id;
        if (!request.contains("game_id")) {
            request["game_id"] = table_.game_id;
        }
        client.send(request);
        const auto error = client.wait_error(id);
        EXPECT_EQ(error["code"], code) << request.dump();
        EXPECT_FALSE(error.value("message", "").empty());
        EXPECT_EQ(table_.snapshot(*table_.sam), before) << request.dump();
    }

    test::TestServer server_{test::fast_limits_without_lag()};
    test::Table table_{server_.port(), "chessence"};
    int count_ = 0;
};

TEST_F(RoomErrors, RefusalsChangeNothing) {
    ASSERT_FALSE(table_.game_id.empty());
    const std::string first = table_.start["legal"][0];
    expect_refused(*table_.sam, {{"type", "move"}, {"move", first}}, "not_a_player");
    expect_refused(*table_.sam, {{"type", "resign"}}, "not_a_player");
    expect_refused(*table_.bob, {{"type", "move"}, {"move", first}}, "not_your_turn");
    expect_refused(*table_.ann, {{"type", "move"}, {"move", "z9-z10"}}, "illegal_move");
    expect_refused(*table_.ann, {{"type", "move"}, {"move", "a1-a1"}}, "illegal_move");
    expect_refused(*table_.ann, {{"type", "move"}, {"game_id", "g_nope"}, {"move", first}},
                   "no_such_game");
    expect_refused(*table_.ann, {{"type", "draw_accept"}}, "no_draw_offer");
    expect_refused(*table_.bob, {{"type", "draw_decline"}}, "no_draw_offer");
    expect_refused(*table_.ann, {{"type", "rematch_offer"}}, "wrong_phase");
    expect_refused(*table_.ann, {{"type", "name_object"}, {"object", 2}}, "not_supported");
    expect_refused(*table_.ann, {{"type", "choose_side"}, {"side", "odd"}}, "not_supported");
    expect_refused(*table_.ann, {{"type", "chat"}, {"text", std::string(400, 'c')}},
                   "chat_too_long");

    table_.ann->send({{"type", "resign"}, {"game_id", table_.game_id}});
    EXPECT_EQ(table_.event(++table_.version)["kind"], "game_over");
    expect_refused(*table_.bob, {{"type", "move"}, {"move", first}}, "game_over");
    expect_refused(*table_.ann, {{"type", "move"}, {"move", first}}, "game_over");
    expect_refused(*table_.bob, {{"type", "resign"}}, "game_over");
    expect_refused(*table_.bob, {{"type", "draw_offer"}}, "game_over");
    expect_refused(*table_.bob, {{"type", "rematch_accept"}}, "no_rematch_offer");
}

}  // namespace
