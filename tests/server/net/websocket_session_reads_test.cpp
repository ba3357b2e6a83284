// A store whose reads fail (tests/server/test_stores.h): the session answers internal_error and
// logs it, never as if nothing had been found. A token stays good and a game stays there; once
// reads work again, the same requests succeed.
#include "server/net/websocket_session.h"

#include <gtest/gtest.h>

#include "server/game_table.h"
#include "server/log_capture.h"
#include "server/test_stores.h"
#include "server/test_support.h"

namespace {

using test::json;
using test::WsClient;

class WsReads : public ::testing::Test {
protected:
    WsReads() {
        auto store = std::make_unique<test::ReadFailingStore>();
        store_ = store.get();
        server_ = std::make_unique<test::TestServer>(test::fast_limits(), std::move(store));
    }
    ~WsReads() override { server_.reset(); }  // before the capture lets go of the loggers

    // Whether `client` was ever sent an error with `code`.
    static bool got_error(const WsClient& client, const std::string& code) {
        for (const auto& error : client.history_of("error")) {
            if (error["code"] == code) {
                return true;
            }
        }
        return false;
    }

    test::LogCapture log_{{"ws", "lobby"}};
    test::ReadFailingStore* store_ = nullptr;
    std::unique_ptr<test::TestServer> server_;
};

TEST_F(WsReads, HelloWhoseTokenCannotBeReadIsAnInternalErrorAndTheTokenStaysGood) {
    test::Table table(server_->port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    const std::string token = table.ann_token;
    const std::string player_id = table.ann->player_id();

    store_->fail_reads = true;
    WsClient c(server_->port());
    c.send({{"type", "hello"}, {"protocol", 1}, {"token", token}, {"id", "h1"}});
    const auto error = c.wait_error("h1");
    EXPECT_EQ(error["code"], "internal_error");
    EXPECT_EQ(error["message"], "the server could not read your account; try again");
    // No identity was made: not a new guest, not a bad token.
    c.send({{"type", "ping"}, {"id", "p"}});
    EXPECT_EQ(c.wait_error("p")["code"], "hello_required");
    EXPECT_TRUE(c.history_of("welcome").empty());
    EXPECT_FALSE(got_error(c, "bad_token"));
    EXPECT_GT(store_->failed_reads.load(), 0);
    EXPECT_TRUE(log_.has_line_with({"client", "hello", "test store: cannot read"})) << log_.text();

    // Reads work again: the same token on the same connection is the same player with its game.
    store_->fail_reads = false;
    const auto welcome = c.hello(token);
    EXPECT_EQ(welcome["player"]["id"], player_id);
    EXPECT_EQ(welcome["player"]["name"], "Ann");
    EXPECT_EQ(welcome["token"], token);
    EXPECT_EQ(welcome["games"], json::array({table.game_id}));
    EXPECT_FALSE(got_error(c, "bad_token"));
    EXPECT_EQ(c.schema_violations(), 0u);
}

TEST_F(WsReads, AGameThatCannotBeLoadedIsAnInternalErrorUntilReadsRecover) {
    std::string game_id;
    std::string bob_token;
    {
        test::Table table(server_->port(), "chesica");
        ASSERT_FALSE(table.game_id.empty());
        game_id = table.game_id;
        bob_token = table.bob_token;
        table.bob->send({{"type", "resign"}, {"game_id", game_id}});
        EXPECT_EQ(table.event(1)["kind"], "game_over");
    }
    server_->restart();  // the finished game is in the store only
    WsClient bob(server_->port());
    bob.hello(bob_token);

    store_->fail_reads = true;
    bob.send({{"type", "watch"}, {"game_id", game_id}, {"id", "w1"}});
    const auto watch_failed = bob.wait_error("w1");
    EXPECT_EQ(watch_failed["code"], "internal_error");
    EXPECT_EQ(watch_failed["game_id"], game_id);
    EXPECT_EQ(watch_failed["message"], "the server could not load this game; try again");
    bob.send({{"type", "move"}, {"game_id", game_id}, {"move", "a1-b2"}, {"id", "m1"}});
    EXPECT_EQ(bob.wait_error("m1")["code"], "internal_error");
    EXPECT_FALSE(got_error(bob, "no_such_game"));
    EXPECT_TRUE(log_.has_line_with({"client", game_id, "test store: cannot read game"}))
        << log_.text();

    // Nothing was kept of the failed loads: the next requests load the game.
    store_->fail_reads = false;
    bob.send({{"type", "watch"}, {"game_id", game_id}, {"id", "w2"}});
    const auto snapshot = bob.wait_type("snapshot");
    EXPECT_EQ(snapshot["game_id"], game_id);
    EXPECT_EQ(snapshot["version"], 1);
    EXPECT_EQ(snapshot["result"]["reason"], "resignation");
    bob.send({{"type", "move"}, {"game_id", game_id}, {"move", "a1-b2"}, {"id", "m2"}});
    EXPECT_EQ(bob.wait_error("m2")["code"], "game_over");
    bob.send({{"type", "watch"}, {"game_id", "g_none"}, {"id", "n"}});
    EXPECT_EQ(bob.wait_error("n")["code"], "no_such_game");
    EXPECT_EQ(bob.schema_violations(), 0u);
}

TEST_F(WsReads, AccountsAndTheLobbyAnswerInternalErrorWhenReadsFail) {
    WsClient ann(server_->port());
    ann.hello(std::nullopt, std::string("Ann"));
    // An account's pairing needs its ratings (a guest's reads nothing from the store).
    WsClient cara(server_->port());
    cara.hello(std::nullopt, std::string("Cara"));
    cara.send({{"type", "register"},
               {"username", "cara_k"},
               {"password", "correct horse"},
               {"id", "cara"}});
    cara.wait_type("signed_in");

    store_->fail_reads = true;
    ann.send({{"type", "register"},
              {"username", "ann_k"},
              {"password", "correct horse"},
              {"id", "reg"}});
    EXPECT_EQ(ann.wait_error("reg")["code"], "internal_error");
    ann.send(
        {{"type", "login"}, {"username", "ann_k"}, {"password", "correct horse"}, {"id", "in"}});
    EXPECT_EQ(ann.wait_error("in")["code"], "internal_error");
    cara.send({{"type", "quick_pair"}, {"variant", "chesica"}, {"id", "q"}});
    EXPECT_EQ(cara.wait_error("q")["code"], "internal_error");
    EXPECT_FALSE(got_error(ann, "name_taken"));
    EXPECT_FALSE(got_error(ann, "bad_credentials"));

    store_->fail_reads = false;
    cara.send({{"type", "quick_pair"}, {"variant", "chesica"}, {"id", "q2"}});
    EXPECT_EQ(cara.wait_type("seek_created")["id"], "q2");
}

}  // namespace
