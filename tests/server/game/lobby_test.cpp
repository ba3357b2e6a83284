// The lobby on a real server: live deltas, seeks public and private, quick pairing (paging, the
// coalesced counters and join storms: lobby_deltas_test.cpp).
#include "server/game/lobby.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "server/lobby_view.h"
#include "server/test_support.h"

namespace {

using test::json;
using test::WsClient;

class LobbyTest : public ::testing::Test {
public:
    static bool lists(const json& seeks, const std::string& seek_id) {
        for (const auto& seek : seeks) {
            if (seek["seek_id"] == seek_id) {
                return true;
            }
        }
        return false;
    }

    test::TestServer server_{test::fast_limits()};
};

TEST_F(LobbyTest, SubscribersSeeSeeksComeAndGo) {
    WsClient watcher(server_.port());
    WsClient ann(server_.port());
    watcher.hello();
    ann.hello(std::nullopt, std::string("Ann"));
    watcher.send({{"type", "lobby_subscribe"}, {"id", "sub"}});
    const auto first = watcher.wait_type("lobby");
    EXPECT_EQ(first["id"], "sub");
    EXPECT_TRUE(first["seeks"].empty());
    ann.send({{"type", "seek_create"}, {"variant", "chesica"}, {"side", "black"}, {"id", 1}});
    const auto created = ann.wait_type("seek_created");
    EXPECT_EQ(created["id"], 1);
    const std::string seek_id = created["seek"]["seek_id"];
    EXPECT_EQ(created["seek"]["side"], "black");
    EXPECT_EQ(created["seek"]["creator"]["name"], "Ann");
    // The subscriber hears of the seek as one delta: the seek itself.
    EXPECT_EQ(watcher.wait_type("seek_added")["seek"], created["seek"]);
    ann.send({{"type", "seek_cancel"}, {"seek_id", seek_id}, {"id", 2}});
    EXPECT_EQ(ann.wait_type("seek_cancelled")["seek_id"], seek_id);
    EXPECT_EQ(watcher.wait_type("seek_removed")["seek_id"], seek_id);
    const auto view = test::lobby_view(watcher);
    EXPECT_FALSE(view.has_seek(seek_id));
    EXPECT_EQ(view.full_lists, 1);  // the whole lobby only once, on subscribe
    EXPECT_TRUE(test::eventually([&] { return server_.store().seeks().value().empty(); }));
}

TEST_F(LobbyTest, SeekErrors) {
    WsClient ann(server_.port());
    WsClient bob(server_.port());
    ann.hello();
    bob.hello();
    ann.send({{"type", "seek_create"}, {"variant", "chessence"}, {"id", "s"}});
    const std::string seek_id = ann.wait_type("seek_created")["seek"]["seek_id"];
    ann.send({{"type", "seek_accept"}, {"seek_id", seek_id}, {"id", "own"}});
    EXPECT_EQ(ann.wait_error("own")["code"], "own_seek");
    bob.send({{"type", "seek_cancel"}, {"seek_id", seek_id}, {"id", "theirs"}});
    EXPECT_EQ(bob.wait_error("theirs")["code"], "no_such_seek");
    bob.send({{"type", "seek_accept"}, {"seek_id", "s_nothing"}, {"id", "none"}});
    EXPECT_EQ(bob.wait_error("none")["code"], "no_such_seek");
    for (int i = 0; i < 5; ++i) {
        ann.send(
            {{"type", "seek_create"}, {"variant", "chesica"}, {"id", "more" + std::to_string(i)}});
    }
    EXPECT_EQ(ann.wait_error("more4")["code"], "rate_limited");
}

TEST_F(LobbyTest, PrivateSeekIsReachableOnlyByItsId) {
    WsClient watcher(server_.port());
    WsClient ann(server_.port());
    WsClient bob(server_.port());
    watcher.hello();
    ann.hello();
    bob.hello();
    ann.send({{"type", "seek_create"}, {"variant", "chesica"}, {"private", true}, {"id", "p"}});
    const auto created = ann.wait_type("seek_created");
    EXPECT_TRUE(created["seek"]["private"].get<bool>());
    const std::string seek_id = created["seek"]["seek_id"];
    watcher.send({{"type", "lobby_subscribe"}, {"id", "sub"}});
    EXPECT_FALSE(lists(watcher.wait_type("lobby")["seeks"], seek_id));
    // Quick pairing never picks a private seek.
    bob.send({{"type", "quick_pair"}, {"variant", "chesica"}, {"id", "q"}});
    const auto own = bob.wait_type("seek_created");
    EXPECT_NE(own["seek"]["seek_id"], seek_id);
    WsClient carol(server_.port());
    carol.hello();
    carol.send({{"type", "seek_accept"}, {"seek_id", seek_id}});
    const auto started = carol.wait_type("game_started");
    EXPECT_EQ(ann.wait_type("game_started")["game_id"], started["game_id"]);
    // A private game is not listed among the games in progress.
    watcher.send({{"type", "lobby_subscribe"}, {"id", "again"}});
    const auto lobby =
        watcher.wait_for([](const json& m) { return m.value("id", json()) == "again"; });
    for (const auto& game : lobby["games"]) {
        EXPECT_NE(game["game_id"], started["game_id"]);
    }
}

TEST_F(LobbyTest, QuickPairJoinsTheOldestCompatibleSeek) {
    WsClient ann(server_.port());
    WsClient bob(server_.port());
    WsClient watcher(server_.port());
    ann.hello();
    bob.hello();
    watcher.hello();
    ann.send({{"type", "quick_pair"}, {"variant", "chessence"}, {"id", "a"}});
    const std::string seek_id = ann.wait_type("seek_created")["seek"]["seek_id"];
    watcher.send({{"type", "lobby_subscribe"}});
    bob.send({{"type", "quick_pair"}, {"variant", "chesica"}, {"id", "other"}});
    const std::string bob_seek = bob.wait_type("seek_created")["seek"]["seek_id"];
    EXPECT_NE(bob_seek, seek_id);
    bob.send({{"type", "quick_pair"}, {"variant", "chessence"}, {"id", "b"}});
    const auto started = bob.wait_type("game_started");
    EXPECT_EQ(ann.wait_type("game_started")["game_id"], started["game_id"]);
    const std::string game_id = started["game_id"];
    const auto view = test::wait_lobby(watcher, [&](const test::LobbyView& v) {
        return !v.has_seek(seek_id) && v.has_game(game_id);
    });
    EXPECT_EQ(view.game(game_id)["variant"], "chessence");
    EXPECT_TRUE(view.has_seek(bob_seek));
}

// Limits whose seek grace and invitation life are one second.
server::Limits quick_expiry() {
    auto limits = test::fast_limits();
    limits.seek_grace = std::chrono::seconds(1);
    limits.invite_ttl = std::chrono::seconds(1);
    return limits;
}

TEST(LobbyExpiry, APublicSeekLeavesWhenItsPlayerStaysAway) {
    test::TestServer server(quick_expiry());
    WsClient watcher(server.port());
    watcher.hello();
    watcher.send({{"type", "lobby_subscribe"}, {"id", "sub"}});
    watcher.wait_for([](const json& m) { return m.value("id", json()) == "sub"; });
    std::string seek_id;
    {
        WsClient ann(server.port());
        ann.hello();
        ann.send({{"type", "seek_create"}, {"variant", "sniderman"}, {"rounds", 5}});
        const auto seek = ann.wait_type("seek_created")["seek"];
        seek_id = seek["seek_id"];
        EXPECT_EQ(seek["rounds"], 5);
        EXPECT_EQ(seek["side"], "random");
        EXPECT_FALSE(seek.contains("expires_at"));  // a public seek lives while its player is here
        test::wait_lobby(watcher, [&](const test::LobbyView& v) { return v.has_seek(seek_id); });
    }
    // Ann is gone: the seek stays for the grace, then leaves.
    const auto gone = std::chrono::steady_clock::now();
    test::wait_lobby(watcher, [&](const test::LobbyView& v) { return !v.has_seek(seek_id); });
    EXPECT_GE(std::chrono::steady_clock::now() - gone, std::chrono::milliseconds(900));
    // The store forgets it too (its write is not awaited: it may land just after the delta).
    EXPECT_TRUE(test::eventually([&] { return server.store().seeks().value().empty(); }));
}

TEST(LobbyExpiry, ASeekFollowsItsPlayerThroughAReload) {
    auto limits = test::fast_limits();
    limits.seek_grace = std::chrono::seconds(3);  // a reload on a busy machine takes far less
    test::TestServer server(limits);
    WsClient watcher(server.port());
    watcher.hello();
    std::string token;
    std::string seek_id;
    {
        WsClient ann(server.port());
        token = ann.hello(std::nullopt, std::string("Ann"))["token"];
        ann.send({{"type", "seek_create"}, {"variant", "chesica"}, {"side", "white"}});
        seek_id = ann.wait_type("seek_created")["seek"]["seek_id"];
    }
    WsClient ann(server.port());
    ann.hello(token);
    // The new connection is told of the seek it now holds.
    EXPECT_EQ(ann.wait_type("seek_created")["seek"]["seek_id"], seek_id);
    // Past the grace it is still open, and the game reaches Ann's new connection.
    std::this_thread::sleep_for(std::chrono::milliseconds(3200));
    watcher.send({{"type", "lobby_subscribe"}, {"id", "now"}});
    EXPECT_TRUE(LobbyTest::lists(
        watcher.wait_for([](const json& m) { return m.value("id", json()) == "now"; })["seeks"],
        seek_id));
    watcher.send({{"type", "seek_accept"}, {"seek_id", seek_id}});
    const auto started = ann.wait_type("game_started");
    EXPECT_EQ(started["you"], "white");
    EXPECT_EQ(watcher.wait_type("game_started")["game_id"], started["game_id"]);
}

TEST(LobbyExpiry, AnInvitationWaitsForItsPlayer) {
    test::TestServer server(test::fast_limits());
    std::string token;
    std::string seek_id;
    {
        WsClient ann(server.port());
        token = ann.hello()["token"];
        ann.send({{"type", "seek_create"}, {"variant", "chessence"}, {"private", true}});
        const auto seek = ann.wait_type("seek_created")["seek"];
        seek_id = seek["seek_id"];
        EXPECT_EQ(seek["expires_at"], seek["created_at"].get<std::int64_t>() + 3600);
    }
    // Ann is away, yet the invitation is open: the invitation page reads it …
    const auto open = test::http_get(server.port(), "/api/seeks/" + seek_id);
    EXPECT_EQ(open.status, 200);
    EXPECT_EQ(json::parse(open.body)["seek_id"], seek_id);
    // … Bob accepts it, and Ann finds the game when she is back.
    WsClient bob(server.port());
    bob.hello();
    bob.send({{"type", "seek_accept"}, {"seek_id", seek_id}});
    const std::string game_id = bob.wait_type("game_started")["game_id"];
    WsClient ann(server.port());
    EXPECT_EQ(ann.hello(token)["games"], json::array({game_id}));
}

TEST(LobbyExpiry, AnInvitationExpires) {
    test::TestServer server(quick_expiry());
    WsClient ann(server.port());
    ann.hello();
    ann.send({{"type", "seek_create"}, {"variant", "chessence"}, {"private", true}});
    const auto seek = ann.wait_type("seek_created")["seek"];
    const std::string seek_id = seek["seek_id"];
    EXPECT_EQ(seek["expires_at"], seek["created_at"].get<std::int64_t>() + 1);
    EXPECT_EQ(ann.wait_type("seek_cancelled")["seek_id"], seek_id);
    WsClient bob(server.port());
    bob.hello();
    bob.send({{"type", "seek_accept"}, {"seek_id", seek_id}, {"id", "late"}});
    EXPECT_EQ(bob.wait_error("late")["code"], "no_such_seek");
    EXPECT_EQ(test::http_get(server.port(), "/api/seeks/" + seek_id).status, 404);
}

TEST(LobbyExpiry, TheLimitOfOpenSeeksIsPerPlayer) {
    test::TestServer server(test::fast_limits());
    WsClient first(server.port());
    const std::string token = first.hello()["token"];
    WsClient second(server.port());
    second.hello(token);
    for (int i = 0; i < 5; ++i) {
        auto& tab = i % 2 == 0 ? first : second;
        tab.send({{"type", "seek_create"}, {"variant", "chesica"}, {"id", i}});
        tab.wait_for([&](const json& m) { return m.value("id", json()) == i; });
    }
    second.send({{"type", "seek_create"}, {"variant", "chesica"}, {"id", "sixth"}});
    EXPECT_EQ(second.wait_error("sixth")["code"], "rate_limited");
}

}  // namespace
