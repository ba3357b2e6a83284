// The WebSocket session on a real socket: handshake, identity, malformed input, limits.
#include "server/net/websocket_session.h"

#include <gtest/gtest.h>

#include <thread>

#include "server/test_stores.h"
#include "server/test_support.h"

namespace {

using test::json;
using test::WsClient;

class Ws : public ::testing::Test {
protected:
    test::TestServer server_;
};

TEST_F(Ws, HelloFirst) {
    WsClient c(server_.port());
    c.send({{"type", "ping"}, {"id", 1}});
    const auto error = c.wait_error(1);
    EXPECT_EQ(error["code"], "hello_required");
    const auto welcome = c.hello();
    EXPECT_EQ(welcome["protocol"], 1);
    EXPECT_EQ(welcome["id"], "hello");
    EXPECT_EQ(welcome["player"]["id"].get<std::string>().rfind("p_", 0), 0u);
    EXPECT_GE(welcome["token"].get<std::string>().size(), 32u);
    EXPECT_TRUE(welcome["games"].empty());
    c.send({{"type", "ping"}, {"id", "two"}});
    EXPECT_EQ(c.wait_type("pong")["id"], "two");
}

TEST_F(Ws, UnsupportedProtocolCloses) {
    WsClient c(server_.port());
    c.send({{"type", "hello"}, {"protocol", 2}, {"id", 5}});
    EXPECT_EQ(c.wait_error(5)["code"], "unsupported_protocol");
    EXPECT_TRUE(c.wait_closed());
}

TEST_F(Ws, TokenRestoresTheIdentityAndIsStoredOnlyHashed) {
    std::string token;
    std::string id;
    {
        WsClient first(server_.port());
        const auto welcome = first.hello(std::nullopt, std::string("Ann"));
        token = welcome["token"];
        id = welcome["player"]["id"];
        EXPECT_EQ(welcome["player"]["name"], "Ann");
    }
    const auto stored = server_.store().player(id).value();
    ASSERT_TRUE(stored.has_value());
    EXPECT_NE(stored->token_hash, token);
    EXPECT_EQ(stored->token_hash.size(), 64u);
    WsClient again(server_.port());
    const auto welcome = again.hello(token);
    EXPECT_EQ(welcome["player"]["id"], id);
    EXPECT_EQ(welcome["player"]["name"], "Ann");
    EXPECT_EQ(welcome["token"], token);
}

TEST_F(Ws, BadTokenGivesANewGuest) {
    WsClient c(server_.port());
    c.send({{"type", "hello"}, {"protocol", 1}, {"token", "not-a-real-token-at-all"}, {"id", "h"}});
    EXPECT_EQ(c.wait_error("h")["code"], "bad_token");
    const auto welcome = c.wait_type("welcome");
    EXPECT_EQ(welcome["id"], "h");
    EXPECT_EQ(welcome["player"]["name"].get<std::string>().rfind("Guest ", 0), 0u);
}

TEST_F(Ws, SetNameChecksTheRules) {
    WsClient c(server_.port());
    c.hello();
    c.send({{"type", "set_name"}, {"name", "  Zed_9 "}, {"id", 1}});
    const auto player = c.wait_type("player");
    EXPECT_EQ(player["player"]["name"], "Zed_9");
    EXPECT_EQ(player["id"], 1);
    EXPECT_EQ(server_.store().player(c.player_id()).value()->name, "Zed_9");
    c.send_raw(R"({"type":"set_name","name":"<b>bold</b>","id":2})");
    EXPECT_EQ(c.wait_error(2)["code"], "bad_name");
    c.send_raw(R"({"type":"set_name","name":"this name is far too long","id":3})");
    EXPECT_EQ(c.wait_error(3)["code"], "bad_name");
    EXPECT_EQ(server_.store().player(c.player_id()).value()->name, "Zed_9");
}

TEST_F(Ws, MalformedInputIsAnsweredAndTheConnectionStays) {
    WsClient c(server_.port());
    c.hello();
    c.send_raw("{not json");
    EXPECT_EQ(c.wait_type("error")["code"], "bad_json");
    c.send_raw(R"({"type":"fly","id":"u"})");
    EXPECT_EQ(c.wait_error("u")["code"], "unknown_type");
    c.send_raw(R"({"type":"move","game_id":"g_x","id":"m"})");
    EXPECT_EQ(c.wait_error("m")["code"], "missing_field");
    c.send_raw(R"({"type":"watch","game_id":"g_x","since":"yesterday","id":"b"})");
    EXPECT_EQ(c.wait_error("b")["code"], "bad_field");
    c.send_raw(R"({"type":"move","game_id":"g_none","move":"a1-a2","id":"n"})");
    const auto missing = c.wait_error("n");
    EXPECT_EQ(missing["code"], "no_such_game");
    EXPECT_EQ(missing["game_id"], "g_none");
    c.sync();
    EXPECT_FALSE(c.closed());
}

TEST_F(Ws, OversizedFrameClosesOnlyThatClient) {
    WsClient big(server_.port());
    WsClient other(server_.port());
    big.hello();
    other.hello();
    // Appended, not concatenated with +: GCC 12 sees a false out-of-bounds copy in the latter.
    std::string frame = R"({"type":"chat","game_id":"g","text":")";
    frame.append(server::default_max_frame_bytes + 10, 'x');
    frame.append("\"}");
    big.send_raw(frame);
    EXPECT_EQ(big.wait_type("error")["code"], "frame_too_large");
    EXPECT_TRUE(big.wait_closed());
    EXPECT_EQ(big.close_code(), 1009);
    other.sync();
    EXPECT_FALSE(other.closed());
}

TEST_F(Ws, HugeFrameIsCutOff) {
    WsClient big(server_.port());
    big.hello();
    big.send_raw(
        std::string(server::default_max_frame_bytes * server::hard_frame_factor + 100, ' '));
    EXPECT_TRUE(big.wait_closed());
    EXPECT_EQ(big.close_code(), 1009);
}

TEST_F(Ws, RateLimitAnswersAndKeepsServing) {
    WsClient c(server_.port());
    c.hello();
    const int burst = 2 * server::default_rate_per_second + 10;
    for (int i = 0; i < burst; ++i) {
        c.send({{"type", "ping"}, {"id", i}});
    }
    const auto limited = c.wait_for([](const json& m) {
        return m.value("type", "") == "error" && m.value("code", "") == "rate_limited";
    });
    EXPECT_EQ(limited["code"], "rate_limited");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    c.sync();
    EXPECT_FALSE(c.closed());
}

TEST(WsLimits, IdleClientIsClosed) {
    server::Limits limits;
    limits.idle_timeout = std::chrono::seconds(2);
    test::TestServer server(limits);
    // A raw client that never answers pings: Beast's client would answer them, so read nothing.
    WsClient c(server.port());
    c.hello();
    // The client library answers pings only while reading; stay silent for longer than the timeout.
    std::this_thread::sleep_for(std::chrono::milliseconds(3500));
    EXPECT_TRUE(c.wait_closed(std::chrono::milliseconds(3000)));
}

TEST(WsLimits, ClientThatFallsBehindIsDropped) {
    server::Limits limits;
    limits.max_queue = 8;
    limits.rate_per_second = 10000000;
    test::TestServer server(limits);
    WsClient slow(server.port());
    slow.hello();
    // Requests whose answers the client never reads: once the socket buffers are full the
    // server's queue overflows and it drops the client.
    const std::string ping =
        R"({"type":"ping","id":"0123456789012345678901234567890123456789012345678901234567890123"})";
    for (int i = 0; i < 400000 && !slow.closed(); ++i) {
        slow.send_raw(ping);
    }
    EXPECT_TRUE(slow.wait_closed(std::chrono::milliseconds(10000)));
    // The server still serves others.
    WsClient other(server.port());
    other.hello();
    other.sync();
}

// A guest is welcomed only once it is stored; a store that refuses it leaves the connection
// without an identity, and the next hello works.
// Issue 23: requests sent right after hello, before the welcome (while the new guest is being
// stored), wait for it and are handled in order; they used to get hello_required.
TEST(WsIdentity, RequestsPipelinedAfterHelloAreHandledInOrder) {
    auto store = std::make_unique<test::ControlledStore>();
    store->slow_players = true;  // the guest is stored 300 ms after hello
    test::TestServer server({}, std::move(store));
    WsClient c(server.port());
    c.send({{"type", "hello"}, {"protocol", 1}, {"id", "h"}});
    c.send({{"type", "ping"}, {"id", "p1"}});
    c.send_raw("{\"type\":");  // bad JSON: its error comes in its turn too
    c.send({{"type", "ping"}, {"id", "p2"}});
    c.wait_for([](const json& m) { return m.value("type", "") == "pong" && m["id"] == "p2"; });
    // What came back, in order (lobby pushes and the like left out).
    std::vector<std::string> replies;
    for (const auto& message : c.history()) {
        const std::string type = message.value("type", "");
        if (type == "welcome" || type == "pong" || type == "error") {
            replies.push_back(type + " " +
                              (type == "error" ? message.value("code", "")
                                               : message.value("id", json("")).dump()));
        }
    }
    EXPECT_EQ(replies, (std::vector<std::string>{"welcome \"h\"", "pong \"p1\"", "error bad_json",
                                                 "pong \"p2\""}));
}

TEST(WsIdentity, AGuestIsWelcomedOnlyOnceStored) {
    auto store = std::make_unique<test::ControlledStore>();
    auto* controlled = store.get();
    test::TestServer server({}, std::move(store));
    WsClient c(server.port());
    controlled->fail_players = true;
    c.send({{"type", "hello"}, {"protocol", 1}, {"name", "Ann"}, {"id", "h1"}});
    EXPECT_EQ(c.wait_error("h1")["code"], "internal_error");
    c.send({{"type", "ping"}, {"id", "p"}});
    EXPECT_EQ(c.wait_error("p")["code"], "hello_required");
    controlled->fail_players = false;
    const auto welcome = c.hello(std::nullopt, std::string("Ann"));
    const auto id = welcome["player"]["id"].get<std::string>();
    ASSERT_TRUE(server.store().player(id).value().has_value());
    EXPECT_EQ(server.store().player(id).value()->name, "Ann");

    // A known token with a new name: the rename is stored before the welcome.
    WsClient again(server.port());
    const auto back = again.hello(c.token(), std::string("Annie"));
    EXPECT_EQ(back["player"]["id"], id);
    EXPECT_EQ(back["player"]["name"], "Annie");
    EXPECT_EQ(server.store().player(id).value()->name, "Annie");
}

}  // namespace
