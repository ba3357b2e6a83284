// Issue 23: one test per flood from one address, each asserting the refusal (a coded error or an
// HTTP status with a clear text) and that clients from other addresses go on unharmed. The server
// trusts 127.0.0.1 as a proxy, so a test speaks from any address by sending X-Forwarded-For.
#include <gtest/gtest.h>

#include <thread>

#include "server/game_table.h"
#include "server/test_support.h"

namespace {

using test::json;
using test::WsClient;

// A WebSocket upgrade (or, with `upgrade` false, a GET of `target`) from `address`, on a fresh
// connection.
test::RawAnswer raw_request(std::uint16_t port, const std::string& address, bool upgrade = true,
                            const std::string& target = "/ws") {
    return test::forwarded_request(
        port, address.empty() ? std::vector<std::string>{} : std::vector<std::string>{address},
        upgrade, target);
}

// The upgrade's status once the server has counted what closed (it may take a moment).
int upgrade_status_soon(std::uint16_t port, const std::string& address, int wanted) {
    int status = 0;
    for (int i = 0; i < 100 && status != wanted; ++i) {
        status = raw_request(port, address).status;
        if (status != wanted) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    return status;
}

TEST(AddressLimitsServer, ManyConnectionsFromOneAddressAreRefused) {
    auto limits = test::behind_proxy();
    limits.connections_per_ip = 3;
    test::TestServer server(limits);
    std::vector<std::unique_ptr<WsClient>> mine;
    for (int i = 0; i < 3; ++i) {
        mine.push_back(std::make_unique<WsClient>(server.port(), "198.51.100.7"));
        mine.back()->hello();
    }
    const auto refused = raw_request(server.port(), "198.51.100.7");
    EXPECT_EQ(refused.status, 429);
    EXPECT_NE(refused.body.find("too many connections from your address"), std::string::npos)
        << refused.body;
    EXPECT_EQ(raw_request(server.port(), "198.51.100.8").status, 101) << "another address";
    mine[0]->sync();  // the address's open connections still work
    mine[0]->close();
    EXPECT_EQ(upgrade_status_soon(server.port(), "198.51.100.7", 101), 101)
        << "a closed connection frees its place";
}

TEST(AddressLimitsServer, TheServerRefusesConnectionsWhenFull) {
    auto limits = test::behind_proxy();
    limits.connections_total = 2;
    test::TestServer server(limits);
    WsClient a(server.port(), "198.51.100.1");
    WsClient b(server.port(), "198.51.100.2");
    a.hello();
    b.hello();
    const auto refused = raw_request(server.port(), "198.51.100.3");
    EXPECT_EQ(refused.status, 503);
    EXPECT_NE(refused.body.find("full"), std::string::npos) << refused.body;
    a.sync();
    b.sync();
}

TEST(AddressLimitsServer, XForwardedForCountsOnlyFromATrustedProxy) {
    auto limits = test::fast_limits();  // no trusted proxy
    limits.connections_per_ip = 2;
    test::TestServer server(limits);
    WsClient a(server.port(), "198.51.100.1");
    WsClient b(server.port(), "198.51.100.2");
    a.hello();
    b.hello();
    EXPECT_EQ(raw_request(server.port(), "198.51.100.3").status, 429)
        << "all three come from 127.0.0.1, whatever they claim";
}

TEST(AddressLimitsServer, NewGuestsPerHourFromOneAddress) {
    auto limits = test::behind_proxy();
    limits.guests_per_ip_per_hour = 2;
    test::TestServer server(limits);
    WsClient first(server.port(), "198.51.100.7");
    const auto token = first.hello().value("token", "");
    WsClient second(server.port(), "198.51.100.7");
    second.hello();
    WsClient third(server.port(), "198.51.100.7");
    third.send({{"type", "hello"}, {"protocol", 1}, {"id", "h"}});
    const auto error = third.wait_error("h");
    EXPECT_EQ(error["code"], "rate_limited");
    EXPECT_NE(error.value("message", "").find("new guests"), std::string::npos) << error;
    WsClient again(server.port(), "198.51.100.7");
    EXPECT_EQ(again.hello(token)["player"]["id"], first.player_id())
        << "a known player is no new guest";
    WsClient elsewhere(server.port(), "198.51.100.8");
    EXPECT_EQ(elsewhere.hello().value("type", ""), "welcome");
}

TEST(AddressLimitsServer, ASeekFloodFromOneAddressIsRefused) {
    auto limits = test::behind_proxy();
    limits.seeks_per_ip = 3;
    test::TestServer server(limits);
    WsClient ann(server.port(), "198.51.100.7");
    WsClient bob(server.port(), "198.51.100.7");
    WsClient cat(server.port(), "198.51.100.8");
    ann.hello();
    bob.hello();
    cat.hello();
    for (int i = 0; i < 3; ++i) {
        ann.send({{"type", "seek_create"}, {"variant", "chessence"}, {"id", i}});
        ann.wait_type("seek_created");
    }
    bob.send({{"type", "seek_create"}, {"variant", "chessence"}, {"id", "b"}});
    const auto error = bob.wait_error("b");
    EXPECT_EQ(error["code"], "rate_limited");
    EXPECT_NE(error.value("message", "").find("from one address"), std::string::npos) << error;
    cat.send({{"type", "seek_create"}, {"variant", "chessence"}, {"id", "c"}});
    EXPECT_EQ(cat.wait_type("seek_created")["id"], "c");
    EXPECT_EQ(server.store().seeks().value().size(), 4u) << "nothing of the refused seek stored";
}

TEST(AddressLimitsServer, ChatSpamFromOneAddressIsRefused) {
    auto limits = test::fast_limits();
    limits.chat_per_ip = 3;
    limits.trusted_proxies = "127.0.0.1";
    test::TestServer server(limits);
    test::Table table(server.port(), "chessence");  // Ann, Bob and Sam all from 127.0.0.1
    ASSERT_FALSE(table.game_id.empty());
    WsClient far(server.port(), "198.51.100.9");
    far.hello();
    far.send({{"type", "watch"}, {"game_id", table.game_id}, {"id", "w"}});
    far.wait_type("snapshot");
    for (int i = 0; i < 3; ++i) {
        // append, not "a" + …: GCC 12 warns falsely (-Wstringop-overflow) about the insert.
        const auto id = std::string("a").append(std::to_string(i));
        table.ann->send({{"type", "chat"}, {"game_id", table.game_id}, {"text", "hi"}, {"id", id}});
        table.ann->wait_for([&](const json& m) { return m.value("id", json()) == id; });
    }
    table.bob->send({{"type", "chat"}, {"game_id", table.game_id}, {"text", "spam"}, {"id", "b"}});
    const auto error = table.bob->wait_error("b");
    EXPECT_EQ(error["code"], "rate_limited");
    EXPECT_NE(error.value("message", "").find("your address"), std::string::npos) << error;
    far.send({{"type", "chat"}, {"game_id", table.game_id}, {"text", "hello"}, {"id", "f"}});
    EXPECT_EQ(far.wait_for([](const json& m) { return m.value("id", json()) == "f"; })["type"],
              "ack")
        << "another address still chats";
}

TEST(AddressLimitsServer, OpenGamesPerPlayer) {
    auto limits = test::fast_limits();
    limits.games_per_player = 1;
    test::TestServer server(limits);
    test::Table table(server.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    table.ann->send({{"type", "seek_create"}, {"variant", "chesica"}, {"id", "more"}});
    const auto error = table.ann->wait_error("more");
    EXPECT_EQ(error["code"], "rate_limited");
    EXPECT_NE(error.value("message", "").find("finish one first"), std::string::npos) << error;
    table.sam->send({{"type", "seek_create"}, {"variant", "chesica"}, {"id", "sam"}});
    const std::string seek_id = table.sam->wait_type("seek_created")["seek"]["seek_id"];
    table.bob->send({{"type", "seek_accept"}, {"seek_id", seek_id}, {"id", "acc"}});
    EXPECT_EQ(table.bob->wait_error("acc")["code"], "rate_limited");
    EXPECT_EQ(server.store().seeks().value().size(), 1u) << "Sam's seek is still open";
}

TEST(AddressLimitsServer, AnHttpFloodFromOneAddressGets429) {
    auto limits = test::behind_proxy();
    limits.http_per_ip = 2;  // bursts of 4
    test::TestServer server(limits);
    int refused = 0;
    std::string body;
    for (int i = 0; i < 12; ++i) {
        auto answer = raw_request(server.port(), "198.51.100.7", false, "/healthz");
        if (answer.status == 429) {
            ++refused;
            body = answer.body;
        } else {
            EXPECT_EQ(answer.status, 200);
        }
    }
    EXPECT_GE(refused, 6);
    EXPECT_NE(body.find("too many requests"), std::string::npos) << body;
    EXPECT_EQ(raw_request(server.port(), "198.51.100.8", false, "/healthz").status, 200);
}

}  // namespace
