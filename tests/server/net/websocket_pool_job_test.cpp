// A connection's account reads, its login limiter counts and its hello's reads run on the blocking
// pool (issue 42): while one waits on the store, the only I/O thread still serves the other
// connections, and the waiting connection's later frames are answered after it, in order. A
// rename holds the frames after it until it is stored.
#include "server/net/websocket_session.h"

#include <chrono>
#include <string>

#include <gtest/gtest.h>

#include "server/one_io_thread_server.h"
#include "server/storage_test_util.h"
#include "server/store/sqlite_store.h"
#include "server/test_support.h"

namespace {

using namespace std::chrono_literals;
using test::json;
using test::WsClient;

server::Limits pool_job_limits() {
    auto limits = test::fast_limits();
    limits.password_ops = 1;
    limits.password_memory = 8192;
    return limits;
}

bool is_reply(const json& message, const std::string& type, const json& id) {
    return message.value("type", "") == type && message.value("id", json()) == id;
}

// Where in `client`'s history the first answer to request `id` is (-1: none).
int answer_at(const WsClient& client, const json& id) {
    const auto& history = client.history();
    for (std::size_t i = 0; i < history.size(); ++i) {
        if (history[i].value("id", json()) == id) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

// `waiting` has a request held at the store's gate (`held` reads): `other`'s ping is answered all
// the same; then the gate opens and `waiting`'s ping "after" comes, after the answer to `request`
// (of type `answer`).
void expect_other_served_then_in_order(test::OneIoThreadServer& server, WsClient& waiting,
                                       WsClient& other, const json& request,
                                       const std::string& answer) {
    waiting.send(request);
    waiting.send({{"type", "ping"}, {"id", "after"}});
    ASSERT_TRUE(server.store().wait_held(1)) << "the request never reached the store";
    other.send({{"type", "ping"}, {"id", "other"}});
    const auto pong =
        other.wait_for([](const json& m) { return is_reply(m, "pong", "other"); }, 3s);
    server.store().open();
    EXPECT_TRUE(pong.is_object()) << "another connection waited for this one's store read";
    const auto answered =
        waiting.wait_for([&](const json& m) { return is_reply(m, answer, request["id"]); });
    ASSERT_TRUE(answered.is_object());
    ASSERT_TRUE(
        waiting.wait_for([](const json& m) { return is_reply(m, "pong", "after"); }).is_object());
    EXPECT_LT(answer_at(waiting, request["id"]), answer_at(waiting, "after"))
        << "a frame after the request was answered before it";
    EXPECT_EQ(waiting.schema_violations(), 0u);
}

TEST(WsOnPool, ALoginWhoseAccountReadHangsStopsNoOtherConnection) {
    test::OneIoThreadServer server(pool_job_limits());
    WsClient ann(server.port());
    ann.hello();
    WsClient bob(server.port());
    bob.hello();
    server.store().close("account_by_username");
    expect_other_served_then_in_order(server, ann, bob,
                                      {{"type", "login"},
                                       {"username", "nobody_here"},
                                       {"password", "correct horse"},
                                       {"id", "login"}},
                                      "error");
    EXPECT_EQ(ann.history_of("error").at(0)["code"], "bad_credentials");
}

TEST(WsOnPool, ALoginWhoseFlagsReadHangsStopsNoOtherConnection) {
    test::OneIoThreadServer server(pool_job_limits());
    WsClient ann(server.port());
    ann.hello();
    ann.send({{"type", "register"},
              {"username", "ann_pool"},
              {"password", "correct horse"},
              {"id", "reg"}});
    ASSERT_TRUE(ann.wait_type("signed_in").is_object());
    WsClient phone(server.port());
    phone.hello();
    WsClient bob(server.port());
    bob.hello();
    server.store().close("moderation");  // read once the password is right
    expect_other_served_then_in_order(server, phone, bob,
                                      {{"type", "login"},
                                       {"username", "ann_pool"},
                                       {"password", "correct horse"},
                                       {"id", "login"}},
                                      "signed_in");
    EXPECT_EQ(phone.history_of("signed_in").at(0)["player"]["id"], ann.player_id());
}

TEST(WsOnPool, AHelloWhoseAccountReadHangsStopsNoOtherConnection) {
    test::OneIoThreadServer server(pool_job_limits());
    std::string token;
    {
        WsClient first(server.port());
        token = first.hello(std::nullopt, std::string("Cleo")).value("token", "");
    }
    ASSERT_FALSE(token.empty());
    WsClient again(server.port());
    WsClient bob(server.port());
    bob.hello();
    server.store().close("account");
    expect_other_served_then_in_order(
        server, again, bob, {{"type", "hello"}, {"protocol", 1}, {"token", token}, {"id", "hi"}},
        "welcome");
    EXPECT_EQ(again.history_of("welcome").at(0)["player"]["name"], "Cleo");
}

TEST(WsOnPool, ASeekCreatedRightAfterARenameCarriesTheNewName) {
    storage_test::TempDir dir;
    auto store = server::open_sqlite_store(dir.file("rename.db"));
    ASSERT_TRUE(store.ok()) << store.error();
    test::TestServer server(test::fast_limits(), std::move(*store));
    WsClient piper(server.port());
    piper.hello(std::nullopt, std::string("Piper Two"));
    // The rename's write is pending while the next frame is read: that frame waits for it.
    const std::vector<std::string> names = {"Piper Three", "Piper Four", "Piper Five"};
    for (std::size_t i = 0; i < names.size(); ++i) {
        const json seek_id = "seek" + std::to_string(i);
        piper.send({{"type", "set_name"}, {"name", names[i]}, {"id", static_cast<int>(i)}});
        piper.send({{"type", "seek_create"}, {"variant", "chessence"}, {"id", seek_id}});
        const auto renamed = piper.wait_for(
            [&](const json& m) { return is_reply(m, "player", json(static_cast<int>(i))); });
        const auto created =
            piper.wait_for([&](const json& m) { return is_reply(m, "seek_created", seek_id); });
        ASSERT_TRUE(renamed.is_object());
        ASSERT_TRUE(created.is_object());
        EXPECT_EQ(renamed["player"]["name"], names[i]);
        EXPECT_EQ(created["seek"]["creator"]["name"], names[i]) << "the seek has the old name";
        piper.send({{"type", "seek_cancel"}, {"seek_id", created["seek"]["seek_id"]}});
    }
    EXPECT_EQ(piper.schema_violations(), 0u);
}

}  // namespace
