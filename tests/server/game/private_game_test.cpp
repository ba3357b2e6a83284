// Issue 23: a private game shows itself to its players and to whoever has its link (its 128-bit
// access key): watching it and reading it over HTTP without the key is refused, and no one else is
// harmed by the refusal.
#include <gtest/gtest.h>

#include <regex>

#include "server/game_table.h"
#include "server/test_support.h"

namespace {

using test::json;
using test::WsClient;

class PrivateGame : public ::testing::Test {
protected:
    void SetUp() override {
        table_ = std::make_unique<test::Table>(server_.port(), "chessence", 1, true);
        ASSERT_FALSE(table_->game_id.empty());
        table_->ann->send({{"type", "watch"}, {"game_id", table_->game_id}, {"id", "mine"}});
        const auto snapshot =
            table_->ann->wait_for([](const json& m) { return m.value("id", json()) == "mine"; });
        key_ = snapshot.value("access_key", "");
    }

    test::TestServer server_;
    std::unique_ptr<test::Table> table_;
    std::string key_;
};

TEST_F(PrivateGame, ItsPlayersSeeItsKeyAndItsSpectatorsDoNot) {
    EXPECT_TRUE(std::regex_match(key_, std::regex("[0-9a-f]{32}"))) << key_;
    EXPECT_FALSE(table_->start.contains("access_key")) << "Sam watches with the link";
}

TEST_F(PrivateGame, AStrangerWithOnlyItsIdCannotWatch) {
    WsClient stranger(server_.port());
    stranger.hello();
    stranger.send({{"type", "watch"}, {"game_id", table_->game_id}, {"id", 1}});
    auto error = stranger.wait_error(1);
    EXPECT_EQ(error["code"], "forbidden");
    EXPECT_NE(error.value("message", "").find("private"), std::string::npos) << error;
    std::string wrong = key_;
    wrong[0] = wrong[0] == 'a' ? 'b' : 'a';
    stranger.send({{"type", "watch"}, {"game_id", table_->game_id}, {"key", wrong}, {"id", 2}});
    EXPECT_EQ(stranger.wait_error(2)["code"], "forbidden");
    stranger.send({{"type", "chat"}, {"game_id", table_->game_id}, {"text", "hi"}, {"id", 3}});
    EXPECT_EQ(stranger.wait_error(3)["code"], "not_a_player") << "not watching, so no chat";

    stranger.send({{"type", "watch"}, {"game_id", table_->game_id}, {"key", key_}, {"id", 4}});
    const auto snapshot =
        stranger.wait_for([](const json& m) { return m.value("id", json()) == 4; });
    EXPECT_EQ(snapshot.value("type", ""), "snapshot");
    EXPECT_FALSE(snapshot.contains("access_key"));
    table_->ann->sync();  // the players were not disturbed
}

TEST_F(PrivateGame, OverHttpItNeedsItsKeyOrAPlayersToken) {
    const auto& id = table_->game_id;
    EXPECT_EQ(test::http_get(server_.port(), "/api/games/" + id).status, 403);
    EXPECT_EQ(test::http_get(server_.port(), "/api/games/" + id + ".pgn").status, 403);
    EXPECT_EQ(test::http_get(server_.port(), "/api/games/" + id + "?key=0123").status, 403);
    const auto with_key = test::http_get(server_.port(), "/api/games/" + id + "?key=" + key_);
    EXPECT_EQ(with_key.status, 200);
    EXPECT_EQ(test::parse(with_key.body)["game_id"], id);
    EXPECT_EQ(test::http_get(server_.port(), "/api/games/" + id + ".pgn?key=" + key_).status, 200);
    const auto as_player =
        test::http_get(server_.port(), "/api/games/" + id, "GET", "Bearer " + table_->ann_token);
    EXPECT_EQ(as_player.status, 200);
    const auto as_spectator =
        test::http_get(server_.port(), "/api/games/" + id, "GET", "Bearer not-a-token");
    EXPECT_EQ(as_spectator.status, 403);
}

TEST(PublicGame, NeedsNoKey) {
    test::TestServer server;
    test::Table table(server.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    EXPECT_EQ(test::http_get(server.port(), "/api/games/" + table.game_id).status, 200);
    WsClient anyone(server.port());
    anyone.hello();
    anyone.send({{"type", "watch"}, {"game_id", table.game_id}, {"id", 1}});
    EXPECT_EQ(anyone.wait_for([](const json& m) { return m.value("id", json()) == 1; })["type"],
              "snapshot");
}

}  // namespace
