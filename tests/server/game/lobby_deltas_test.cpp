// Issue 24, slice 1: the lobby in deltas on a real server — an idle subscriber gets one whole list
// and then only changes, counters coalesced to one game_changed a second; the games come in pages,
// newest first; a storm of spectators costs O(N) frames and keeps the players connected; a
// finished game lets go of a player who looks at another one.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "server/game_table.h"
#include "server/lobby_view.h"
#include "server/test_support.h"

namespace {

using test::json;
using test::WsClient;

server::Limits roomy_limits() {
    auto limits = test::fast_limits();
    limits.connections_per_ip = 1000;
    limits.guests_per_ip_per_hour = 1000;
    return limits;
}

TEST(LobbyDeltas, AnIdleSubscriberGetsOneListThenOnlyChanges) {
    test::TestServer server(test::fast_limits());
    WsClient watcher(server.port());
    watcher.hello();
    watcher.send({{"type", "lobby_subscribe"}, {"id", "sub"}});
    EXPECT_EQ(watcher.wait_type("lobby")["games_total"], 0);

    // A public game starts from a seek (Table) and plays 20 moves over about two seconds.
    test::Table table(server.port(), "chessence");
    const auto start = std::chrono::steady_clock::now();
    const auto played = test::play_chess(
        table,
        [](const json& legal, int ply) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            return test::capture_first(legal, ply);
        },
        20);
    ASSERT_EQ(played.moves.size(), 20u);
    // The last counters arrive within a second.
    auto view = test::wait_lobby(
        watcher,
        [&](const test::LobbyView& v) {
            return v.has_game(table.game_id) && v.game(table.game_id)["moves"] == 20;
        },
        std::chrono::milliseconds(3000));
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(view.full_lists, 1) << "the whole lobby only once, on subscribe";
    // One game_changed a second at most (and one for the spectator who watched at the start).
    EXPECT_LE(view.game_changed, static_cast<int>(seconds) + 2) << seconds << " s";
    EXPECT_GE(view.game_changed, 1);
    EXPECT_EQ(watcher.history_of("seek_added").size(), 1u);
    EXPECT_EQ(watcher.history_of("seek_removed").size(), 1u);
    EXPECT_EQ(watcher.history_of("game_added").size(), 1u);

    table.ann->send({{"type", "resign"}, {"game_id", table.game_id}});
    EXPECT_EQ(watcher.wait_type("game_removed")["game_id"], table.game_id);
    EXPECT_FALSE(test::lobby_view(watcher).has_game(table.game_id));
    EXPECT_EQ(watcher.schema_violations(), 0u);
}

TEST(LobbyDeltas, GamesComeInPagesNewestFirst) {
    test::TestServer server(roomy_limits());
    std::vector<std::unique_ptr<test::Table>> tables;
    for (int i = 0; i < 3; ++i) {
        tables.push_back(std::make_unique<test::Table>(server.port(), "chesica"));
    }
    WsClient reader(server.port());
    reader.hello();
    // Every game is listed once its room has said so: wait for the third.
    reader.send({{"type", "lobby_subscribe"}, {"id", "sub"}});
    const auto lobby = test::wait_lobby(
        reader, [&](const test::LobbyView& v) { return v.has_game(tables[2]->game_id); });
    reader.send({{"type", "lobby_games"}, {"offset", 0}, {"limit", 2}, {"id", "p1"}});
    const auto first = reader.wait_type("lobby_games");
    EXPECT_EQ(first["id"], "p1");
    EXPECT_EQ(first["total"], 3);
    ASSERT_EQ(first["games"].size(), 2u);
    EXPECT_EQ(first["games"][0]["game_id"], tables[2]->game_id);
    EXPECT_EQ(first["games"][1]["game_id"], tables[1]->game_id);
    reader.send({{"type", "lobby_games"}, {"offset", 2}, {"id", "p2"}});
    const auto second = reader.wait_type("lobby_games");
    ASSERT_EQ(second["games"].size(), 1u);
    EXPECT_EQ(second["games"][0]["game_id"], tables[0]->game_id);
    reader.send({{"type", "lobby_games"}, {"offset", 9}, {"id", "p3"}});
    EXPECT_TRUE(reader.wait_type("lobby_games")["games"].empty());
    reader.send_raw(R"({"type":"lobby_games","limit":101,"id":"big"})");
    EXPECT_EQ(reader.wait_error("big")["code"], "bad_field");
    EXPECT_EQ(reader.schema_violations(), 0u);
}

TEST(LobbyDeltas, ASpectatorStormCostsLinearFramesAndKeepsThePlayers) {
    test::TestServer server(roomy_limits());
    test::Table table(server.port(), "chessence");
    constexpr int spectators = 200;
    std::vector<std::unique_ptr<WsClient>> crowd;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < spectators; ++i) {
        auto client = std::make_unique<WsClient>(server.port());
        client->hello();
        client->send({{"type", "watch"}, {"game_id", table.game_id}});
        crowd.push_back(std::move(client));
    }
    for (auto& client : crowd) {
        client->wait_type("snapshot");
    }
    // Within a second of the last join, the players see the whole crowd (and Sam).
    table.ann->wait_for(
        [&](const json& m) {
            return m.value("type", "") == "spectators" && m["count"] == spectators + 1;
        },
        std::chrono::milliseconds(5000));
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // One count a second at most, not one per spectator.
    const auto counts = table.ann->history_of("spectators").size();
    EXPECT_LE(counts, static_cast<std::size_t>(seconds) + 3) << seconds << " s";
    EXPECT_LE(crowd.front()->history_of("spectators").size(),
              static_cast<std::size_t>(seconds) + 3);
    // Nobody was dropped: the players still play, the crowd still sees it.
    const auto played = test::play_chess(table, test::capture_first, 2);
    EXPECT_EQ(played.moves.size(), 2u);
    for (auto& client : crowd) {
        EXPECT_FALSE(client->closed());
    }
    EXPECT_FALSE(crowd.back()
                     ->wait_for([](const json& m) {
                         return m.value("type", "") == "event" && m["version"] == 2;
                     })
                     .is_null());
}

TEST(LobbyDeltas, AFinishedGameLetsGoOfAPlayerWhoLooksAtAnotherGame) {
    test::TestServer server(roomy_limits());
    test::Table first(server.port(), "chesica");
    first.ann->send({{"type", "resign"}, {"game_id", first.game_id}});
    first.bob->wait_for([](const json& m) {
        return m.value("type", "") == "event" && m["event"].value("kind", "") == "game_over";
    });
    // Bob starts a game with Cy on the same connection: the finished game lets him go.
    WsClient cy(server.port());
    cy.hello();
    cy.send({{"type", "seek_create"}, {"variant", "chessence"}, {"id", "s"}});
    const std::string seek_id = cy.wait_type("seek_created")["seek"]["seek_id"];
    first.bob->send({{"type", "seek_accept"}, {"seek_id", seek_id}});
    const std::string second = first.bob->wait_type("game_started")["game_id"];
    first.bob->wait_type("snapshot");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the first room hears of it
    const auto presence_of_first = [&] {
        std::size_t count = 0;
        for (const auto& m : first.bob->history()) {
            count += m.value("type", "") == "presence" && m.value("game_id", "") == first.game_id;
        }
        return count;
    };
    first.bob->sync();
    const auto before = presence_of_first();
    EXPECT_GE(before, 1u);  // while he looked at it
    // Ann leaves: Bob no longer gets the finished game's presence; Sam, who still looks, does.
    first.ann->close();
    first.sam->wait_for([&](const json& m) {
        return m.value("type", "") == "presence" && m["online"].value("white", true) == false;
    });
    first.bob->sync();
    EXPECT_EQ(presence_of_first(), before) << "a finished game's presence after Bob looked away";
    // A game in progress keeps him: Cy's moves still reach him.
    cy.send({{"type", "resign"}, {"game_id", second}});
    EXPECT_FALSE(first.bob
                     ->wait_for([&](const json& m) {
                         return m.value("type", "") == "event" &&
                                m.value("game_id", "") == second &&
                                m["event"].value("kind", "") == "game_over";
                     })
                     .is_null());
}

}  // namespace
