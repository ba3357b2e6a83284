// Issue 27, the lobby across nodes: real nodes on one PostgreSQL and one Redis. A seek made on one
// node is seen and accepted on another (the game is played across them); two nodes racing to pair
// one seek pair it once; quick pairing finds another node's seek; a node that dies takes its seeks
// out of the other nodes' lobbies; a seek follows its player who comes back on another node.
// Issue 42: a dead node's invitation leaves the store too (its page says it is gone), and a node
// that starts deletes its own earlier seeks and those of nodes no longer alive; what a node
// withdrew while Redis was down (its records lost) leaves the other lobbies once Redis is back,
// and no longer counts against its player's seek limit there (finding 16).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server/cluster/cluster_nodes.h"
#include "server/cluster/test_redis.h"
#include "server/store/open_store.h"

namespace {

using live_test::json;
using live_test::Player;
using live_test::ServerProcess;
using namespace std::chrono_literals;

class ClusterLobby : public cluster_test::ClusterNodes {
protected:
    void start_nodes(int count, const std::vector<std::string>& more = {}) {
        for (int i = 0; i < count; ++i) {
            const std::string name(1, static_cast<char>('a' + i));
            nodes_.push_back(node(name, 5000, more));
            ASSERT_NE(nodes_.back()->port(), 0) << read_log(name);
        }
    }
    unsigned short port(char node) const { return nodes_[node - 'a']->port(); }

    // `player` subscribes to the lobby on its connection: the lobby's seeks.
    static json subscribe(Player& player) {
        player.client->send({{"type", "lobby_subscribe"}, {"id", "sub"}});
        auto lobby = player.client->next_of("lobby");
        return lobby ? (*lobby)["seeks"] : json();
    }
    // Whether the lobby `player` subscribes to again now lists `seek_id`.
    static bool lists_seek(Player& player, const std::string& seek_id) {
        player.client->send({{"type", "lobby_unsubscribe"}});
        const auto seeks = subscribe(player);
        return std::any_of(seeks.begin(), seeks.end(),
                           [&](const json& s) { return s.value("seek_id", "") == seek_id; });
    }
    // The `lobby` message `player` gets when subscribing again now: the seeks and the first
    // page of games.
    static json lobby_now(Player& player) {
        player.client->send({{"type", "lobby_unsubscribe"}});
        player.client->send({{"type", "lobby_subscribe"}, {"id", "sub"}});
        auto lobby = player.client->next_of("lobby");
        return lobby ? *lobby : json();
    }
    // Whether `list` (a lobby's seeks or games) holds an item whose `field` is `id`.
    static bool holds(const json& list, const char* field, const std::string& id) {
        return list.is_array() && std::any_of(list.begin(), list.end(), [&](const json& item) {
                   return item.value(field, "") == id;
               });
    }
    // Asks `player`'s lobby every 200 ms until `done(lobby)` or `within` has passed: the last
    // lobby seen.
    static json lobby_when(Player& player, std::chrono::milliseconds within,
                           const std::function<bool(const json&)>& done) {
        const auto deadline = std::chrono::steady_clock::now() + within;
        auto lobby = lobby_now(player);
        while (!done(lobby) && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(200ms);
            lobby = lobby_now(player);
        }
        return lobby;
    }
    // Waits for the seek `seek_id` to be added to `player`'s lobby.
    static bool sees_seek(Player& player, const std::string& seek_id) {
        return player.client
            ->next([&](const json& m) {
                return m.value("type", "") == "seek_added" &&
                       m["seek"].value("seek_id", "") == seek_id;
            })
            .has_value();
    }
    // `player` makes a public seek of Chessence as White: its id.
    static std::string make_seek(Player& player) {
        player.client->send({{"type", "seek_create"}, {"variant", "chessence"}, {"side", "white"}});
        auto created = player.client->next_of("seek_created");
        return created ? (*created)["seek"].value("seek_id", "") : std::string();
    }

    // Nodes A, B and C; Alice on A, Bob on B and Carol on C, who watch their lobbies.
    void three_nodes_three_players() {
        ASSERT_NO_FATAL_FAILURE(start_nodes(3));
        connect(alice_, port('a'), "Alice");
        connect(bob_, port('b'), "Bob");
        connect(carol_, port('c'), "Carol");
        subscribe(bob_);
        subscribe(carol_);
    }

    std::vector<std::unique_ptr<ServerProcess>> nodes_;
    Player alice_;
    Player bob_;
    Player carol_;
};

TEST_F(ClusterLobby, ASeekMadeOnOneNodeIsAcceptedOnAnotherAndTheGameIsPlayedAcrossThem) {
    ASSERT_NO_FATAL_FAILURE(three_nodes_three_players());
    const auto seek_id = make_seek(alice_);
    ASSERT_FALSE(seek_id.empty());
    ASSERT_TRUE(sees_seek(bob_, seek_id)) << "B's lobby shows A's seek";
    ASSERT_TRUE(sees_seek(carol_, seek_id)) << "and so does C's";

    bob_.client->send({{"type", "seek_accept"}, {"seek_id", seek_id}, {"id", "take"}});
    auto started = bob_.client->next_of("game_started");
    ASSERT_TRUE(started.has_value()) << "Bob's game starts (A pairs the seek)";
    EXPECT_EQ(started->value("id", json()), "take") << "with his request's id";
    EXPECT_EQ(started->value("you", ""), "black");
    const auto game_id = started->value("game_id", "");
    auto snapshot = bob_.client->next_of("snapshot");
    ASSERT_TRUE(snapshot.has_value());
    auto at_alice = alice_.client->next_of("game_started");
    ASSERT_TRUE(at_alice.has_value());
    EXPECT_EQ(at_alice->value("game_id", ""), game_id);
    EXPECT_TRUE(carol_.client
                    ->next([&](const json& m) {
                        return m.value("type", "") == "seek_removed" &&
                               m.value("seek_id", "") == seek_id;
                    })
                    .has_value())
        << "the seek leaves C's lobby";

    // Alice (on A, the owner) and Bob (on B, relayed) play.
    live_test::LiveGame game;
    game.id = game_id;
    game.white = &alice_;
    game.black = &bob_;
    game.legal = (*snapshot)["legal"];
    game.to_move = snapshot->value("to_move", "");
    for (std::size_t ply = 0; ply < 4; ++ply) {
        ASSERT_TRUE(game.play(ply * 3 + 1)) << "ply " << ply;
    }

    // Bob comes back on C: his welcome lists the game A owns.
    Player bob_on_c;
    bob_on_c.token = bob_.token;
    bob_on_c.client = std::make_unique<live_test::Client>(port('c'));
    const auto welcome = live_test::hello(bob_on_c, "Bob");
    ASSERT_TRUE(welcome.contains("games")) << welcome.dump();
    EXPECT_NE(std::find(welcome["games"].begin(), welcome["games"].end(), json(game_id)),
              welcome["games"].end())
        << welcome.dump();

    // Quick pairing on C finds the seek Alice makes on A.
    const auto second = make_seek(alice_);
    ASSERT_TRUE(sees_seek(carol_, second));
    carol_.client->send({{"type", "quick_pair"}, {"variant", "chessence"}, {"id", "quick"}});
    auto paired = carol_.client->next_of("game_started");
    ASSERT_TRUE(paired.has_value());
    EXPECT_EQ(paired->value("id", json()), "quick");
    auto at_a = alice_.client->next_of("game_started");
    ASSERT_TRUE(at_a.has_value());
    EXPECT_EQ(at_a->value("game_id", ""), paired->value("game_id", ""));
}

TEST_F(ClusterLobby, TwoNodesRacingToPairOneSeekPairItOnce) {
    ASSERT_NO_FATAL_FAILURE(three_nodes_three_players());
    for (int round = 0; round < 5; ++round) {
        const auto seek_id = make_seek(alice_);
        ASSERT_FALSE(seek_id.empty());
        ASSERT_TRUE(sees_seek(bob_, seek_id));
        ASSERT_TRUE(sees_seek(carol_, seek_id));
        bob_.client->send({{"type", "seek_accept"}, {"seek_id", seek_id}, {"id", round}});
        carol_.client->send({{"type", "seek_accept"}, {"seek_id", seek_id}, {"id", round}});
        int started = 0;
        int refused = 0;
        for (Player* player : {&bob_, &carol_}) {
            auto answer = player->client->next([&](const json& m) {
                return (m.value("type", "") == "game_started" || m.value("type", "") == "error") &&
                       m.value("id", json()) == round;
            });
            ASSERT_TRUE(answer.has_value()) << "round " << round;
            if (answer->value("type", "") == "game_started") {
                ++started;
            } else {
                EXPECT_EQ(answer->value("code", ""), "no_such_seek") << answer->dump();
                ++refused;
            }
        }
        EXPECT_EQ(started, 1) << "round " << round;
        EXPECT_EQ(refused, 1) << "round " << round;
        ASSERT_TRUE(alice_.client->next_of("game_started").has_value()) << "round " << round;
    }
}

TEST_F(ClusterLobby, ANodeThatDiesTakesItsSeeksOutOfTheOtherLobbies) {
    ASSERT_NO_FATAL_FAILURE(start_nodes(2));
    connect(alice_, port('a'), "Alice");
    connect(bob_, port('b'), "Bob");
    subscribe(bob_);
    const auto seek_id = make_seek(alice_);
    ASSERT_TRUE(sees_seek(bob_, seek_id));
    nodes_[0]->kill_now();
    const auto removed = bob_.client->next([&](const json& m) {
        return m.value("type", "") == "seek_removed" && m.value("seek_id", "") == seek_id;
    });
    EXPECT_TRUE(removed.has_value()) << "B forgets the dead node's seek";
}

// `player` makes a private Chessence seek (an invitation): its id.
std::string lobby_make_invitation(Player& player) {
    player.client->send({{"type", "seek_create"}, {"variant", "chessence"}, {"private", true}});
    auto created = player.client->next_of("seek_created");
    return created ? (*created)["seek"].value("seek_id", "") : std::string();
}

// The status GET /api/seeks/<id> (what the invitation page reads) answers on `port`.
int lobby_invitation_status(unsigned short port, const std::string& seek_id) {
    return live_test::http_get(port, "/api/seeks/" + seek_id).first;
}

TEST_F(ClusterLobby, ADeadNodesInvitationIsGoneFromTheStoreToo) {
    ASSERT_NO_FATAL_FAILURE(start_nodes(2));
    connect(alice_, port('a'), "Alice");
    const auto seek_id = lobby_make_invitation(alice_);
    ASSERT_FALSE(seek_id.empty());
    EXPECT_EQ(lobby_invitation_status(port('b'), seek_id), 200);
    nodes_[0]->kill_now();
    const auto deadline = std::chrono::steady_clock::now() + 20s;
    int status = 200;
    while (status == 200 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(100ms);
        status = lobby_invitation_status(port('b'), seek_id);
    }
    EXPECT_EQ(status, 404) << "B deletes the dead node's invitation from the store";
}

TEST_F(ClusterLobby, ANodeThatStartsDeletesItsEarlierSeeksAndThoseOfDeadNodes) {
    {
        auto store = server::open_store(db_);
        ASSERT_TRUE(store.ok()) << store.error();
        const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
        ASSERT_TRUE((*store)
                        ->commit_sync({server::RecordRun{{1000, 2000}},
                                       server::RecordRun{{now - 60000, now}}})
                        .ok());
        ASSERT_TRUE((*store)->save_seek({"s_dead", "{}", "dead-node", 1000}).ok());
        ASSERT_TRUE((*store)->save_seek({"s_live", "{}", "live-node", now - 60000}).ok());
    }
    nodes_.push_back(node("a", 5000));
    ASSERT_NE(port('a'), 0) << read_log("a");
    EXPECT_EQ(lobby_invitation_status(port('a'), "s_dead"), 404) << "a dead node's seek goes";
    EXPECT_EQ(lobby_invitation_status(port('a'), "s_live"), 200) << "a live node's stays";
    connect(alice_, port('a'), "Alice");
    const auto seek_id = lobby_make_invitation(alice_);
    ASSERT_FALSE(seek_id.empty());
    nodes_[0]->kill_now();
    nodes_[0] = node("a", 5000);  // the same node, back at once
    ASSERT_NE(port('a'), 0) << read_log("a");
    EXPECT_EQ(lobby_invitation_status(port('a'), seek_id), 404)
        << "the node's own seeks did not survive its restart";
}

TEST_F(ClusterLobby, APlayerWhoComesBackOnAnotherNodeKeepsTheirSeeksAndIsPairedThere) {
    // A public seek waits 2 s for its player to come back (--seek-grace).
    ASSERT_NO_FATAL_FAILURE(start_nodes(2, {"--seek-grace", "2"}));
    connect(alice_, port('a'), "Alice");
    connect(bob_, port('b'), "Bob");
    subscribe(bob_);
    const auto first = make_seek(alice_);
    const auto second = make_seek(alice_);
    ASSERT_TRUE(sees_seek(bob_, first));
    ASSERT_TRUE(sees_seek(bob_, second));

    // Alice's connection to A closes; her page comes back through the load balancer on B.
    alice_.client.reset();
    Player alice_on_b;
    alice_on_b.token = alice_.token;
    alice_on_b.client = std::make_unique<live_test::Client>(port('b'));
    live_test::hello(alice_on_b, "Alice");
    std::set<std::string> announced;
    for (int i = 0; i < 2; ++i) {
        auto created = alice_on_b.client->next_of("seek_created");
        ASSERT_TRUE(created.has_value()) << "her page on B is told of her seeks on A";
        announced.insert((*created)["seek"].value("seek_id", ""));
    }
    EXPECT_EQ(announced, (std::set<std::string>{first, second}));
    std::this_thread::sleep_for(3s);
    EXPECT_TRUE(lists_seek(bob_, first)) << "past the grace, her seeks stay: she is back";
    EXPECT_TRUE(lists_seek(bob_, second));

    // Bob takes the first: A pairs it, and Alice's connection on B is seated.
    bob_.client->send({{"type", "seek_accept"}, {"seek_id", first}, {"id", "take"}});
    auto started = bob_.client->next_of("game_started");
    ASSERT_TRUE(started.has_value());
    auto at_alice = alice_on_b.client->next_of("game_started");
    ASSERT_TRUE(at_alice.has_value()) << "A's game_started reaches Alice on B";
    EXPECT_EQ(at_alice->value("game_id", ""), started->value("game_id", ""));
    EXPECT_EQ(at_alice->value("you", ""), "white");

    // Alice leaves B too: once the grace is over, her other seek is withdrawn.
    alice_on_b.client.reset();
    const auto removed = bob_.client->next([&](const json& m) {
        return m.value("type", "") == "seek_removed" && m.value("seek_id", "") == second;
    });
    EXPECT_TRUE(removed.has_value()) << "her seek leaves the lobby after the grace";
}

TEST_F(ClusterLobby, ANodeThatJoinsLearnsTheSeeksAlreadyOpen) {
    ASSERT_NO_FATAL_FAILURE(start_nodes(1));
    connect(alice_, port('a'), "Alice");
    const auto seek_id = make_seek(alice_);
    ASSERT_FALSE(seek_id.empty());
    nodes_.push_back(node("b", 5000));
    ASSERT_NE(nodes_.back()->port(), 0) << read_log("b");
    connect(bob_, port('b'), "Bob");
    // The sync may still be on its way when Bob first looks: ask until it is there.
    bool listed = false;
    for (int attempt = 0; attempt < 50 && !listed; ++attempt) {
        for (const auto& seek : subscribe(bob_)) {
            listed = listed || seek.value("seek_id", "") == seek_id;
        }
        if (!listed) {
            bob_.client->send({{"type", "lobby_unsubscribe"}});
            std::this_thread::sleep_for(100ms);
        }
    }
    EXPECT_TRUE(listed) << "B's lobby lists the seek A had before B started";
}

// Issue 42, finding 16: lobby records are at most once, and a seek cancelled (or a game finished)
// while Redis is down was never removed from the other nodes' lobbies (sync added, never
// removed), where the ghosts also counted against their player's seek limit. A node's state
// round now replaces what the others show of it: within the bound after Redis is back (its
// reconnection's sync, else the next digest, Lobby::anti_entropy_interval), B's lobby is A's.
TEST_F(ClusterLobby, WhatANodeWithdrewWhileRedisWasDownLeavesTheOtherLobbiesOnceItIsBack) {
    test::PrivateRedis redis;
    ASSERT_TRUE(redis.start());
    redis_ = redis.url();
    ASSERT_NO_FATAL_FAILURE(start_nodes(2));
    connect(alice_, port('a'), "Alice");
    connect(bob_, port('b'), "Bob");
    Player dora;
    connect(dora, port('a'), "Dora");
    const auto game = live_test::start_game(alice_, dora, "chessence");
    ASSERT_FALSE(game.id.empty());
    std::vector<std::string> seeks;
    for (int i = 0; i < 5; ++i) {  // as many as one player may hold (max_seeks_per_player)
        seeks.push_back(make_seek(alice_));
        ASSERT_FALSE(seeks.back().empty());
    }
    const auto all_on_b = lobby_when(bob_, 10s, [&](const json& lobby) {
        return holds(lobby["games"], "game_id", game.id) &&
               std::all_of(seeks.begin(), seeks.end(),
                           [&](const auto& id) { return holds(lobby["seeks"], "seek_id", id); });
    });
    ASSERT_TRUE(holds(all_on_b["games"], "game_id", game.id)) << all_on_b.dump();
    ASSERT_TRUE(holds(all_on_b["seeks"], "seek_id", seeks.back())) << all_on_b.dump();

    // Redis stops: Alice cancels four of her seeks on A, and Dora resigns; nobody hears of it.
    ASSERT_TRUE(redis.stop());
    for (int i = 0; i < 4; ++i) {
        alice_.client->send({{"type", "seek_cancel"}, {"seek_id", seeks[i]}, {"id", i}});
        const auto cancelled = alice_.client->next([&](const json& m) {
            return m.value("id", json()) == i &&
                   (m.value("type", "") == "seek_cancelled" || m.value("type", "") == "error");
        });
        ASSERT_TRUE(cancelled.has_value()) << "seek " << i;
        ASSERT_EQ(cancelled->value("type", ""), "seek_cancelled") << cancelled->dump();
    }
    dora.client->send({{"type", "resign"}, {"game_id", game.id}, {"id", "r"}});
    const auto over = dora.client->next([&](const json& m) {
        return (m.value("type", "") == "event" && m.value("game_id", "") == game.id &&
                m["event"].value("kind", "") == "game_over") ||
               (m.value("type", "") == "error" && m.value("id", json()) == "r");
    });
    ASSERT_TRUE(over.has_value());
    ASSERT_EQ(over->value("type", ""), "event") << over->dump();
    ASSERT_TRUE(redis.start());

    // The bound: the pub/sub reconnection (its backoff is at most 2 s) and its sync, or else
    // the next digest (10 s) and the round it asks for; twice that, for a slow machine.
    const auto converged = lobby_when(bob_, 25s, [&](const json& lobby) {
        return !holds(lobby["games"], "game_id", game.id) &&
               std::none_of(seeks.begin(), seeks.begin() + 4,
                            [&](const auto& id) { return holds(lobby["seeks"], "seek_id", id); });
    });
    for (int i = 0; i < 4; ++i) {
        EXPECT_FALSE(holds(converged["seeks"], "seek_id", seeks[i]))
            << "the seek cancelled during the outage still listed on B: " << converged.dump();
    }
    EXPECT_FALSE(holds(converged["games"], "game_id", game.id))
        << "the game that ended during the outage still listed on B: " << converged.dump();
    EXPECT_TRUE(holds(converged["seeks"], "seek_id", seeks[4]))
        << "the seek still open stays: " << converged.dump();

    // Alice, on B too, may open as many seeks there as her one open seek leaves her.
    Player alice_on_b;
    alice_on_b.token = alice_.token;
    connect(alice_on_b, port('b'), "Alice");
    for (int i = 0; i < 4; ++i) {
        alice_on_b.client->send(
            {{"type", "seek_create"}, {"variant", "chessence"}, {"id", "new" + std::to_string(i)}});
        const auto answer = alice_on_b.client->next([&](const json& m) {
            return m.value("id", json()) == "new" + std::to_string(i) &&
                   (m.value("type", "") == "seek_created" || m.value("type", "") == "error");
        });
        ASSERT_TRUE(answer.has_value()) << "seek " << i;
        EXPECT_EQ(answer->value("type", ""), "seek_created")
            << "seek " << i << " on B refused (ghosts counted): " << answer->dump();
    }
}

}  // namespace
