// Issue 27, accounts across nodes: real nodes on one PostgreSQL and one Redis. An admin's mute on
// one node silences the player in a game another node owns; logging out everywhere on one node
// signs out the player's sessions on the others.
#include <gtest/gtest.h>

#include <sstream>

#include "server/admin_command.h"
#include "server/cluster/cluster_nodes.h"

namespace {

using live_test::json;
using live_test::Player;

class ClusterAccounts : public cluster_test::ClusterNodes {
protected:
    // `player` (after hello) registers as `username`: the signed_in answer.
    static json register_as(Player& player, const std::string& username) {
        player.client->send({{"type", "register"},
                             {"username", username},
                             {"password", "correct horse"},
                             {"id", "reg"}});
        auto signed_in = player.client->next_of("signed_in");
        if (!signed_in) {
            return json();
        }
        player.token = signed_in->value("token", "");
        return *signed_in;
    }
    // `player`'s chat line in `game_id`: true when the game's chat shows it, false on an error
    // (`code` then holds its code).
    static bool chat(Player& player, const std::string& game_id, const std::string& text,
                     std::string& code) {
        player.client->send(
            {{"type", "chat"}, {"game_id", game_id}, {"text", text}, {"id", "say"}});
        auto answer = player.client->next([&](const json& m) {
            return (m.value("type", "") == "error" && m.value("id", json()) == "say") ||
                   (m.dump().find(text) != std::string::npos && m.value("type", "") != "error");
        });
        code = answer ? answer->value("code", "") : "no answer";
        return answer && answer->value("type", "") != "error";
    }
};

TEST_F(ClusterAccounts, AMuteAndLoggingOutEverywhereReachEveryNode) {
    auto a = node("a", 5000);
    auto b = node("b", 5000);
    ASSERT_NE(a->port(), 0) << read_log("a");
    ASSERT_NE(b->port(), 0) << read_log("b");

    // Ann and Bob play on A (A owns the game); Ann is also signed in on B.
    Player ann;
    connect(ann, a->port(), "Ann");
    ASSERT_FALSE(register_as(ann, "ann").is_null());
    Player bob;
    connect(bob, a->port(), "Bob");
    ann.client->send({{"type", "seek_create"}, {"variant", "chessence"}, {"side", "white"}});
    auto seek = ann.client->next_of("seek_created");
    ASSERT_TRUE(seek.has_value());
    bob.client->send({{"type", "seek_accept"}, {"seek_id", (*seek)["seek"]["seek_id"]}});
    auto started = bob.client->next_of("game_started");
    ASSERT_TRUE(started.has_value());
    const auto game_id = started->value("game_id", "");
    ASSERT_TRUE(ann.client->next_of("game_started").has_value());
    Player ann_on_b;
    ann_on_b.token = ann.token;
    connect(ann_on_b, b->port(), "Ann");

    // The admin works on B.
    Player boss;
    connect(boss, b->port(), "Boss");
    ASSERT_FALSE(register_as(boss, "boss").is_null());
    std::ostringstream out;
    std::ostringstream err;
    ASSERT_EQ(server::run_admin_command({"admin", "--db", db_, "--grant", "boss"}, db_, out, err),
              0)
        << err.str();
    connect(boss, b->port(), "Boss");  // a new hello reads the account's admin flag

    std::string code;
    ASSERT_TRUE(chat(ann, game_id, "before the mute", code)) << code;
    boss.client->send({{"type", "admin_mute"}, {"player_id", ann.id}, {"id", "mute"}});
    auto status = boss.client->next_of("account_status");
    ASSERT_TRUE(status.has_value());
    ASSERT_EQ(status->value("muted", false), true);
    // The news travels over Redis: A knows within moments.
    bool refused = false;
    for (int attempt = 0; attempt < 50 && !refused; ++attempt) {
        refused = !chat(ann, game_id, "during the mute " + std::to_string(attempt), code);
        if (!refused) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }
    EXPECT_TRUE(refused) << "A, which owns the game, knows of B's mute";
    EXPECT_EQ(code, "muted");
    boss.client->send(
        {{"type", "admin_mute"}, {"player_id", ann.id}, {"muted", false}, {"id", "unmute"}});
    ASSERT_TRUE(boss.client->next_of("account_status").has_value());
    bool heard = false;
    for (int attempt = 0; attempt < 50 && !heard; ++attempt) {
        heard = chat(ann, game_id, "after the mute " + std::to_string(attempt), code);
        if (!heard) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }
    EXPECT_TRUE(heard) << "and of the unmute: " << code;

    // Ann logs out everywhere on A: her session on B is signed out too.
    ann.client->send({{"type", "logout"}, {"everywhere", true}, {"id", "out"}});
    auto mine = ann.client->next_of("signed_out");
    ASSERT_TRUE(mine.has_value());
    auto there = ann_on_b.client->next_of("signed_out");
    ASSERT_TRUE(there.has_value()) << "B's session of Ann is signed out";
    EXPECT_EQ(there->value("reason", ""), "logout_everywhere");
}

}  // namespace
