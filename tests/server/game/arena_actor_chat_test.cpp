// An arena's chat on a real server (issue 43, slice 3): an account's line is stored, then reaches
// every watcher of the tournament as `tournament_chat` (a guest's too) and its writer gets the ack;
// a guest may not talk; a burst beyond a game chat's limit is rate_limited; after a restart a new
// watcher's `tournament` carries the lines said before.
#include "server/game/arena_actor.h"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>

#include "server/limits.h"
#include "server/manual_time.h"
#include "server/test_support.h"

namespace arena_chat_server_test {

using test::json;
using test::WsClient;

server::Limits chat_arena_limits() {
    auto limits = test::fast_limits_without_lag();
    limits.password_ops = 1;
    limits.password_memory = 8192;
    return limits;
}

// A connection signed in to a new account `name`; its session token.
std::unique_ptr<WsClient> chat_account(std::uint16_t port, const std::string& name,
                                       std::string& token) {
    auto ws = std::make_unique<WsClient>(port);
    ws->hello();
    ws->send(
        {{"type", "register"}, {"username", name}, {"password", "correct horse"}, {"id", "reg"}});
    token = ws->wait_type("signed_in")["token"];
    return ws;
}

// An arena that `token`'s account creates, starting now; its id.
std::string chat_arena_of(std::uint16_t port, const std::string& token) {
    const std::string body =
        "name=Chat+Arena&clockTime=3&clockIncrement=2&minutes=20&waitMinutes=0&rated=false";
    std::ostringstream request;
    request << "POST /api/tournament HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            << "Content-Type: application/x-www-form-urlencoded\r\n"
            << "Authorization: Bearer " << token << "\r\n"
            << "Content-Length: " << body.size() << "\r\n\r\n"
            << body;
    const auto answer = test::raw_http(port, request.str());
    EXPECT_EQ(answer.status, 200) << answer.body;
    const auto created = json::parse(answer.body, nullptr, false);
    return created.is_object() ? created.value("id", "") : "";
}

// `ws` watches the tournament; its `tournament` answer.
json watch_chat(WsClient& ws, const std::string& tournament) {
    ws.send({{"type", "tournament_watch"}, {"tournament_id", tournament}, {"id", "watch"}});
    return ws.wait_for([](const json& m) { return m["type"] == "tournament"; });
}

json say(WsClient& ws, const std::string& tournament, const std::string& text,
         const std::string& id) {
    ws.send(
        {{"type", "tournament_chat"}, {"tournament_id", tournament}, {"text", text}, {"id", id}});
    return ws.wait_for([&](const json& m) { return m.value("id", json()) == id; });
}

class ArenaChatServer : public ::testing::Test {
protected:
    std::shared_ptr<test::ManualTime> time_ = std::make_shared<test::ManualTime>();
    test::TestServer server_{chat_arena_limits(), nullptr, time_};
};

TEST_F(ArenaChatServer, ALineReachesEveryWatcherAndAGuestMayNotTalk) {
    std::string ann_token;
    std::string bob_token;
    auto ann = chat_account(server_.port(), "chat_ann", ann_token);
    auto bob = chat_account(server_.port(), "chat_bob", bob_token);
    const auto tournament = chat_arena_of(server_.port(), ann_token);
    ASSERT_FALSE(tournament.empty());
    WsClient guest(server_.port());
    guest.hello();
    for (WsClient* ws : {ann.get(), bob.get(), &guest}) {
        EXPECT_EQ(watch_chat(*ws, tournament)["chat"], json::array());
    }

    // Neither account plays in the arena: talking needs an account, not a place in it.
    EXPECT_EQ(say(*ann, tournament, "gl hf", "c1")["type"], "ack");
    for (WsClient* ws : {ann.get(), bob.get(), &guest}) {
        const auto pushed = ws->wait_type("tournament_chat");
        EXPECT_EQ(pushed["tournament_id"], tournament);
        EXPECT_EQ(pushed["line"]["from"], "chat_ann");
        EXPECT_EQ(pushed["line"]["player_id"], ann->player_id());
        EXPECT_EQ(pushed["line"]["text"], "gl hf");
        const std::string at = pushed["line"]["at"];
        EXPECT_EQ(at.size(), 20u) << at;  // 2026-11-27T20:00:00Z
        EXPECT_EQ(at.back(), 'Z') << at;
    }

    // A guest is refused at the edge; nobody hears anything.
    const auto refused = say(guest, tournament, "hello?", "g1");
    EXPECT_EQ(refused["code"], "account_required") << refused.dump();
    const auto too_long = say(*bob, tournament, std::string(301, 'x'), "b1");
    EXPECT_EQ(too_long["code"], "chat_too_long");
    for (WsClient* ws : {ann.get(), bob.get(), &guest}) {
        ws->sync();
        EXPECT_EQ(ws->history_of("tournament_chat").size(), 1u);
        EXPECT_EQ(ws->schema_violations(), 0u);
    }
    // The line is in the tournament a newcomer watches.
    WsClient late(server_.port());
    late.hello();
    const auto shown = watch_chat(late, tournament);
    ASSERT_EQ(shown["chat"].size(), 1u);
    EXPECT_EQ(shown["chat"][0]["text"], "gl hf");
}

TEST_F(ArenaChatServer, ABurstBeyondTheLimitIsRateLimited) {
    std::string token;
    auto ann = chat_account(server_.port(), "burst_ann", token);
    const auto tournament = chat_arena_of(server_.port(), token);
    ASSERT_FALSE(tournament.empty());
    watch_chat(*ann, tournament);
    for (int i = 0; i < server::chat_burst; ++i) {
        const auto id = "s" + std::to_string(i);
        EXPECT_EQ(say(*ann, tournament, "line " + std::to_string(i), id)["type"], "ack") << id;
    }
    const auto refused = say(*ann, tournament, "one too many", "over");
    EXPECT_EQ(refused["code"], "rate_limited") << refused.dump();
    ann->sync();
    EXPECT_EQ(ann->history_of("tournament_chat").size(),
              static_cast<std::size_t>(server::chat_burst));
}

TEST_F(ArenaChatServer, ARestartKeepsTheLinesForANewWatcher) {
    std::string token;
    auto ann = chat_account(server_.port(), "restart_ann", token);
    const auto tournament = chat_arena_of(server_.port(), token);
    ASSERT_FALSE(tournament.empty());
    ASSERT_EQ(say(*ann, tournament, "before the restart", "r1")["type"], "ack");
    ASSERT_EQ(say(*ann, tournament, "and a second line", "r2")["type"], "ack");
    server_.restart();
    WsClient watcher(server_.port());
    watcher.hello();
    const auto shown = watch_chat(watcher, tournament);
    ASSERT_EQ(shown["chat"].size(), 2u) << shown.dump();
    EXPECT_EQ(shown["chat"][0]["text"], "before the restart");  // oldest first
    EXPECT_EQ(shown["chat"][0]["from"], "restart_ann");
    EXPECT_EQ(shown["chat"][1]["text"], "and a second line");
    EXPECT_EQ(watcher.schema_violations(), 0u);
}

}  // namespace arena_chat_server_test
