// Accounts over the WebSocket protocol (issue 16): register, login from a second connection,
// logout (everywhere), change_password, rate limits, admin powers, and bad input for every new
// request. Passwords use Argon2id's cheapest cost here; the maths is the same.
#include "server/net/websocket_session.h"

#include <gtest/gtest.h>

#include <future>

#include "server/test_support.h"

namespace {

using test::json;
using test::WsClient;

server::Limits account_limits() {
    auto limits = test::fast_limits();
    limits.password_ops = 1;
    limits.password_memory = 8192;
    return limits;
}

// Registers `c` (after hello) and returns the signed_in answer.
json register_as(WsClient& c, const std::string& username,
                 const std::string& password = "correct horse") {
    c.send({{"type", "register"}, {"username", username}, {"password", password}, {"id", "reg"}});
    return c.wait_type("signed_in");
}

json login_as(WsClient& c, const std::string& username, const std::string& password, int id) {
    c.send({{"type", "login"}, {"username", username}, {"password", password}, {"id", id}});
    return c.wait_for([&](const json& m) { return m.value("id", json()) == id; });
}

class WsAccounts : public ::testing::Test {
protected:
    test::TestServer server_{account_limits()};
};

TEST_F(WsAccounts, RegisterThenLogInFromASecondConnection) {
    WsClient ann(server_.port());
    const auto welcome = ann.hello();
    const auto signed_in = register_as(ann, "Ann_K");
    EXPECT_EQ(signed_in["id"], "reg");
    EXPECT_EQ(signed_in["player"]["id"], welcome["player"]["id"]);
    EXPECT_EQ(signed_in["player"]["name"], "Ann_K");
    EXPECT_EQ(signed_in["account"]["username"], "Ann_K");
    EXPECT_EQ(signed_in["account"]["admin"], false);
    EXPECT_NE(signed_in["token"], welcome["token"]);
    const auto account = server_.store().account_by_username("ann_k").value();
    ASSERT_TRUE(account.has_value());
    EXPECT_EQ(account->password_hash.rfind("$argon2id$", 0), 0u);
    EXPECT_EQ(account->password_hash.find("correct horse"), std::string::npos);

    WsClient again(server_.port());
    again.hello();
    const auto login = login_as(again, "ANN_k", "correct horse", 5);
    EXPECT_EQ(login["type"], "signed_in");
    EXPECT_EQ(login["player"]["id"], welcome["player"]["id"]);
    EXPECT_NE(login["token"], signed_in["token"]);

    // Both tokens speak for the account; the guest's token does not any more.
    WsClient third(server_.port());
    EXPECT_EQ(third.hello(login["token"].get<std::string>())["account"]["username"], "Ann_K");
    WsClient fourth(server_.port());
    fourth.send({{"type", "hello"}, {"protocol", 1}, {"token", welcome["token"]}, {"id", "old"}});
    EXPECT_EQ(fourth.wait_error("old")["code"], "bad_token");
}

TEST_F(WsAccounts, AGuestWhoRegistersKeepsItsGamesAndSeats) {
    WsClient ann(server_.port());
    WsClient bob(server_.port());
    ann.hello(std::nullopt, std::string("Ann"));
    bob.hello(std::nullopt, std::string("Bob"));
    ann.send({{"type", "seek_create"}, {"variant", "chessence"}, {"side", "white"}, {"id", 1}});
    const std::string seek = ann.wait_type("seek_created")["seek"]["seek_id"];
    bob.send({{"type", "seek_accept"}, {"seek_id", seek}, {"id", 2}});
    const std::string game = ann.wait_type("game_started")["game_id"];
    const auto signed_in = register_as(ann, "ann");
    ASSERT_EQ(signed_in["games"].size(), 1u);
    EXPECT_EQ(signed_in["games"][0], game);
    ann.send({{"type", "resign"}, {"game_id", game}, {"id", 3}});
    const auto over = bob.wait_for(
        [](const json& m) { return m["type"] == "event" && m["event"]["kind"] == "game_over"; });
    EXPECT_EQ(over["event"]["result"]["winner"], "black");
}

TEST_F(WsAccounts, WrongNameAndWrongPasswordGetTheSameAnswerAndFailuresAreLimited) {
    WsClient ann(server_.port());
    ann.hello();
    register_as(ann, "ann");
    WsClient other(server_.port());
    other.hello();
    const auto unknown = login_as(other, "nobody_here", "correct horse", 1);
    const auto wrong = login_as(other, "ann", "wrong password", 2);
    EXPECT_EQ(unknown["code"], "bad_credentials");
    EXPECT_EQ(wrong["code"], unknown["code"]);
    EXPECT_EQ(wrong["message"], unknown["message"]);
    for (int i = 3; i < 7; ++i) {
        EXPECT_EQ(login_as(other, "ann", "wrong password", i)["code"], "bad_credentials");
    }
    // Five failures on the account from this address: even the right password waits now.
    EXPECT_EQ(login_as(other, "Ann", "correct horse", 7)["code"], "rate_limited");
    EXPECT_EQ(login_as(other, "nobody_there", "x", 8)["code"], "bad_credentials");
}

// Finding 8 of issue 42: five wrong passwords from a stranger's address used to make the owner's
// right password from another address `rate_limited`.
class WsAccountsBehindProxy : public ::testing::Test {
protected:
    test::TestServer server_{test::behind_proxy(account_limits())};
};

TEST_F(WsAccountsBehindProxy, AStrangersFailuresDoNotLockTheOwnerOut) {
    WsClient ann(server_.port(), "198.51.100.2");
    ann.hello();
    register_as(ann, "ann");
    WsClient stranger(server_.port(), "203.0.113.7");
    stranger.hello();
    for (int i = 1; i <= 5; ++i) {
        EXPECT_EQ(login_as(stranger, "ann", "wrong password", i)["code"], "bad_credentials");
    }
    EXPECT_EQ(login_as(stranger, "ann", "correct horse", 6)["code"], "rate_limited")
        << "the address that failed is refused the account, right password or not";

    WsClient phone(server_.port(), "198.51.100.2");
    phone.hello();
    EXPECT_EQ(login_as(phone, "ann", "correct horse", 7)["type"], "signed_in")
        << "the owner, from an address that has not failed, logs in";
    WsClient laptop(server_.port(), "192.0.2.44");
    laptop.hello();
    EXPECT_EQ(login_as(laptop, "ann", "correct horse", 8)["type"], "signed_in");
    EXPECT_EQ(login_as(stranger, "ann", "correct horse", 9)["code"], "rate_limited")
        << "the owner's success does not let the stranger's address back in";
}

TEST_F(WsAccounts, LogoutRevokesTheTokenAndEverywhereSignsOutTheOthers) {
    WsClient ann(server_.port());
    ann.hello();
    const std::string first = register_as(ann, "ann")["token"];
    WsClient phone(server_.port());
    phone.hello();
    const std::string second = login_as(phone, "ann", "correct horse", 1)["token"];
    WsClient tablet(server_.port());
    tablet.hello();
    const std::string third = login_as(tablet, "ann", "correct horse", 2)["token"];

    phone.send({{"type", "logout"}, {"id", 3}});
    EXPECT_EQ(phone.wait_type("signed_out")["reason"], "logout");
    phone.send({{"type", "ping"}, {"id", 4}});
    EXPECT_EQ(phone.wait_error(4)["code"], "hello_required");
    WsClient reuse(server_.port());
    reuse.send({{"type", "hello"}, {"protocol", 1}, {"token", second}, {"id", "h"}});
    EXPECT_EQ(reuse.wait_error("h")["code"], "bad_token");

    ann.send({{"type", "logout"}, {"everywhere", true}, {"id", 5}});
    EXPECT_EQ(ann.wait_type("signed_out")["reason"], "logout");
    EXPECT_EQ(tablet.wait_type("signed_out")["reason"], "logout_everywhere");
    for (const auto& token : {first, third}) {
        WsClient late(server_.port());
        late.send({{"type", "hello"}, {"protocol", 1}, {"token", token}, {"id", "t"}});
        EXPECT_EQ(late.wait_error("t")["code"], "bad_token");
    }
    WsClient back(server_.port());
    back.hello();
    EXPECT_EQ(login_as(back, "ann", "correct horse", 6)["type"], "signed_in");
}

TEST_F(WsAccounts, ChangePasswordNeedsTheOldOneAndSignsOutOtherSessions) {
    WsClient ann(server_.port());
    ann.hello();
    register_as(ann, "ann");
    WsClient phone(server_.port());
    phone.hello();
    login_as(phone, "ann", "correct horse", 1);
    ann.send({{"type", "change_password"},
              {"password", "not it at all"},
              {"new_password", "battery staple"},
              {"id", 2}});
    EXPECT_EQ(ann.wait_error(2)["code"], "bad_credentials");
    ann.send({{"type", "change_password"},
              {"password", "correct horse"},
              {"new_password", "battery staple"},
              {"id", 3}});
    EXPECT_EQ(ann.wait_type("password_changed")["id"], 3);
    EXPECT_EQ(phone.wait_type("signed_out")["reason"], "password_changed");
    WsClient next(server_.port());
    next.hello();
    EXPECT_EQ(login_as(next, "ann", "correct horse", 4)["code"], "bad_credentials");
    EXPECT_EQ(login_as(next, "ann", "battery staple", 5)["type"], "signed_in");
}

TEST_F(WsAccounts, BadInputForEveryAccountRequest) {
    WsClient ann(server_.port());
    ann.hello();
    ann.send_raw(R"({"type":"register","username":"ab","password":"long enough","id":1})");
    EXPECT_EQ(ann.wait_error(1)["code"], "bad_name");
    ann.send_raw(R"({"type":"register","username":"bad name!","password":"long enough","id":2})");
    EXPECT_EQ(ann.wait_error(2)["code"], "bad_name");
    ann.send_raw(R"({"type":"register","username":"ann","password":"short","id":3})");
    EXPECT_EQ(ann.wait_error(3)["code"], "weak_password");
    ann.send_raw(R"({"type":"register","username":"ann","id":4})");
    EXPECT_EQ(ann.wait_error(4)["code"], "missing_field");
    ann.send_raw(R"({"type":"register","username":"ann","password":12345678,"id":5})");
    EXPECT_EQ(ann.wait_error(5)["code"], "bad_field");
    ann.send_raw(R"({"type":"login","username":"ann","id":6})");
    EXPECT_EQ(ann.wait_error(6)["code"], "missing_field");
    ann.send_raw(R"({"type":"logout","id":7})");
    EXPECT_EQ(ann.wait_error(7)["code"], "account_required");
    ann.send_raw(R"({"type":"logout","everywhere":"yes","id":8})");
    EXPECT_EQ(ann.wait_error(8)["code"], "bad_field");
    ann.send_raw(
        R"({"type":"change_password","password":"x","new_password":"long enough","id":9})");
    EXPECT_EQ(ann.wait_error(9)["code"], "account_required");
    ann.send_raw(R"({"type":"admin_mute","player_id":"p_x","id":10})");
    EXPECT_EQ(ann.wait_error(10)["code"], "forbidden");
    ann.send_raw(R"({"type":"admin_close","id":11})");
    EXPECT_EQ(ann.wait_error(11)["code"], "missing_field");
    ann.send_raw(R"({"type":"seek_create","variant":"chessence","rated":true,"id":12})");
    EXPECT_EQ(ann.wait_error(12)["code"], "account_required");
    ann.send_raw(R"({"type":"quick_pair","variant":"chesica","rated":true,"id":13})");
    EXPECT_EQ(ann.wait_error(13)["code"], "account_required");
    ann.send_raw(
        R"({"type":"seek_create","variant":"chessence","rating_min":1900,"rating_max":1200,"id":14})");
    EXPECT_EQ(ann.wait_error(14)["code"], "bad_field");
    ann.send_raw(R"({"type":"seek_create","variant":"chessence","rating_max":99999,"id":15})");
    EXPECT_EQ(ann.wait_error(15)["code"], "bad_field");

    register_as(ann, "ann");
    WsClient bob(server_.port());
    bob.hello();
    bob.send({{"type", "register"}, {"username", "ANN"}, {"password", "long enough"}, {"id", 16}});
    EXPECT_EQ(bob.wait_error(16)["code"], "name_taken");
    ann.send({{"type", "register"}, {"username", "ann2"}, {"password", "long enough"}, {"id", 17}});
    EXPECT_EQ(ann.wait_error(17)["code"], "already_registered");
    ann.send({{"type", "set_name"}, {"name", "Someone"}, {"id", 18}});
    EXPECT_EQ(ann.wait_error(18)["code"], "forbidden");
    ann.send_raw(
        R"({"type":"change_password","password":"correct horse","new_password":"short","id":19})");
    EXPECT_EQ(ann.wait_error(19)["code"], "weak_password");
    ann.sync();
    EXPECT_FALSE(ann.closed());
    EXPECT_EQ(ann.schema_violations(), 0u);
}

TEST_F(WsAccounts, AnAdminMutesChatAndClosesAnAccountWhoseGamesStay) {
    WsClient boss(server_.port());
    boss.hello();
    const std::string boss_id = register_as(boss, "boss")["player"]["id"];
    std::promise<core::Status> granted;
    server_.store().commit({server::SetAdmin{boss_id, true}},
                           [&](core::Status s) { granted.set_value(std::move(s)); });
    ASSERT_TRUE(granted.get_future().get());

    WsClient ann(server_.port());
    WsClient bob(server_.port());
    ann.hello();
    bob.hello();
    const std::string ann_id = register_as(ann, "ann")["player"]["id"];
    ann.send({{"type", "seek_create"}, {"variant", "chesica"}, {"id", 1}});
    const std::string seek = ann.wait_type("seek_created")["seek"]["seek_id"];
    bob.send({{"type", "seek_accept"}, {"seek_id", seek}, {"id", 2}});
    const std::string game = ann.wait_type("game_started")["game_id"];

    WsClient admin(server_.port());
    admin.hello();
    EXPECT_EQ(login_as(admin, "boss", "correct horse", 3)["account"]["admin"], true);
    admin.send({{"type", "admin_mute"}, {"player_id", ann_id}, {"id", 4}});
    const auto muted = admin.wait_type("account_status");
    EXPECT_EQ(muted["muted"], true);
    EXPECT_EQ(muted["closed"], false);
    ann.send({{"type", "chat"}, {"game_id", game}, {"text", "hello"}, {"id", 5}});
    EXPECT_EQ(ann.wait_error(5)["code"], "muted");
    admin.send({{"type", "admin_mute"}, {"player_id", "p_nobody"}, {"id", 6}});
    EXPECT_EQ(admin.wait_error(6)["code"], "no_such_player");

    admin.send({{"type", "admin_close"}, {"player_id", ann_id}, {"id", 7}});
    EXPECT_EQ(admin.wait_type("account_status")["closed"], true);
    EXPECT_EQ(ann.wait_type("signed_out")["reason"], "account_closed");
    WsClient again(server_.port());
    again.hello();
    EXPECT_EQ(login_as(again, "ann", "correct horse", 8)["code"], "account_closed");
    const auto stored = server_.store().game(game).value();
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->seats[0] == ann_id || stored->seats[1] == ann_id, true);
    const auto page = test::http_get(server_.port(), "/api/players/" + ann_id);
    EXPECT_EQ(page.status, 200);
    EXPECT_EQ(test::parse(page.body)["closed"], true);
}

}  // namespace
