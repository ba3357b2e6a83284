// A session whose request handler throws: the exception is logged with the client id, that client
// is closed with 1011, it leaves the lobby (its seeks are withdrawn: this server gives a player
// without a connection no grace), and every other client is served as before.
#include "server/net/websocket_session.h"

#include <gtest/gtest.h>

#include "server/lobby_view.h"
#include "server/log_capture.h"
#include "server/test_support.h"
#include "server/throwing_store.h"

namespace {

using test::json;
using test::WsClient;

class WsErrors : public ::testing::Test {
protected:
    WsErrors() {
        auto store = std::make_unique<test::ThrowingStore>();
        store_ = store.get();
        auto limits = test::fast_limits();
        limits.seek_grace = std::chrono::seconds(0);  // a closed player's seeks leave at once
        server_ = std::make_unique<test::TestServer>(limits, std::move(store));
    }
    ~WsErrors() override { server_.reset(); }  // before the capture lets go of the loggers

    test::LogCapture log_{{"ws", "lobby", "server"}};
    test::ThrowingStore* store_ = nullptr;
    std::unique_ptr<test::TestServer> server_;
};

TEST_F(WsErrors, ASessionThatThrowsLeavesTheLobbyAndOthersGoOn) {
    WsClient watcher(server_->port());
    watcher.hello();
    watcher.send({{"type", "lobby_subscribe"}, {"id", "sub"}});
    watcher.wait_type("lobby");
    WsClient doomed(server_->port());
    doomed.hello(std::nullopt, std::string("Doomed"));
    doomed.send({{"type", "seek_create"}, {"variant", "chessence"}, {"id", 1}});
    const std::string seek_id = doomed.wait_type("seek_created")["seek"]["seek_id"];
    test::wait_lobby(watcher, [&](const test::LobbyView& v) { return v.has_seek(seek_id); });

    // set_name writes through the store, which now throws inside the session's handler.
    store_->fail_commits = 1;
    doomed.send({{"type", "set_name"}, {"name", "Renamed"}, {"id", 2}});
    EXPECT_TRUE(doomed.wait_closed());
    EXPECT_EQ(doomed.close_code(), 1011);
    EXPECT_EQ(store_->fail_commits.load(), 0);

    // Its seek is withdrawn: the watcher sees a lobby without it, and the store forgot it.
    test::wait_lobby(watcher, [&](const test::LobbyView& v) { return !v.has_seek(seek_id); });
    EXPECT_TRUE(test::eventually([&] { return store_->seeks().value().empty(); }));
    EXPECT_TRUE(log_.has_line_with({"client", "exception", "commit refused by throwing"}))
        << log_.text();

    // The watcher and new clients are served as before.
    watcher.sync();
    WsClient next(server_->port());
    next.hello();
    next.send({{"type", "seek_create"}, {"variant", "chesica"}, {"id", 3}});
    const std::string next_seek = next.wait_type("seek_created")["seek"]["seek_id"];
    test::wait_lobby(watcher, [&](const test::LobbyView& v) { return v.has_seek(next_seek); });
    EXPECT_EQ(watcher.schema_violations(), 0u);
}

// Hello's reads run on the blocking pool (issue 42), which turns an exception into an error: the
// client is answered internal_error, as a lobby handler's is, and may say hello again.
TEST_F(WsErrors, AReadThatThrowsInHelloAnswersInternalErrorAndOthersGoOn) {
    WsClient first(server_->port());
    const auto token = first.hello()["token"].get<std::string>();
    WsClient bystander(server_->port());
    bystander.hello();

    store_->fail_reads = 1;
    WsClient again(server_->port());
    again.send({{"type", "hello"}, {"protocol", 1}, {"token", token}, {"id", "h"}});
    EXPECT_EQ(again.wait_error("h")["code"], "internal_error");
    EXPECT_TRUE(again.history_of("welcome").empty());
    EXPECT_FALSE(again.closed());
    EXPECT_EQ(store_->fail_reads.load(), 0);
    EXPECT_TRUE(log_.has_line_with({"client", "exception", "read refused by throwing"}))
        << log_.text();

    bystander.sync();
    first.sync();
    EXPECT_EQ(again.hello(token)["player"]["id"], first.player_id());
    WsClient later(server_->port());
    EXPECT_EQ(later.hello(token)["player"]["id"], first.player_id());
}

TEST_F(WsErrors, ALobbyHandlerThatThrowsAnswersInternalErrorAndTheLobbyGoesOn) {
    WsClient ann(server_->port());
    WsClient bob(server_->port());
    ann.hello(std::nullopt, std::string("Ann"));
    bob.hello(std::nullopt, std::string("Bob"));
    ann.send({{"type", "seek_create"}, {"variant", "chessence"}, {"id", 1}});
    const std::string seek_id = ann.wait_type("seek_created")["seek"]["seek_id"];

    // Accepting reads the players' names from the store, on the lobby strand.
    store_->fail_reads = 1;
    bob.send({{"type", "seek_accept"}, {"seek_id", seek_id}, {"id", 7}});
    EXPECT_EQ(bob.wait_error(7)["code"], "internal_error");
    EXPECT_TRUE(log_.has_line_with({"[lobby]", "seek_accept", "exception", "read refused"}))
        << log_.text();

    bob.send({{"type", "seek_accept"}, {"seek_id", seek_id}, {"id", 8}});
    EXPECT_EQ(bob.wait_type("game_started")["variant"], "chessence");
    EXPECT_EQ(ann.wait_type("game_started")["variant"], "chessence");
    EXPECT_FALSE(bob.closed());
}

}  // namespace
