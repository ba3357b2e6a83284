// Issue 42, finding 5: a finished game that is not in memory answers those without a seat in it
// from the store. Their requests load no room (none stays in memory: GET /metrics
// chessence_rooms_in_memory), and the answers are the ones the loaded room gives.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/game_table.h"

namespace {

using test::json;

double rooms_in_memory_now(std::uint16_t port) {
    return test::metric_value(test::http_get(port, "/metrics").body, "chessence_rooms_in_memory");
}

// Whether the server holds `rooms` rooms, soon (a room leaves memory on its strand).
bool rooms_in_memory_become(std::uint16_t port, double rooms) {
    return test::eventually([&] { return rooms_in_memory_now(port) == rooms; });
}

// The answer to `client`'s request with `id`.
json answer_to(test::WsClient& client, const json& id) {
    return client.wait_for([&](const json& m) { return m.value("id", json()) == id; });
}

// `count` games of Chesica between Ann and Bob, each resigned by Ann at once: their ids. Every
// game a player starts makes the connection stop watching the finished one before.
std::vector<std::string> resigned_games(test::WsClient& ann, test::WsClient& bob, int count) {
    std::vector<std::string> games;
    for (int i = 0; i < count; ++i) {
        ann.send({{"type", "seek_create"}, {"variant", "chesica"}, {"side", "white"}});
        const auto created = ann.wait_type("seek_created");
        bob.send({{"type", "seek_accept"}, {"seek_id", created["seek"]["seek_id"]}});
        const auto started = ann.wait_type("game_started");
        bob.wait_type("game_started");
        const std::string game_id = started.value("game_id", "");
        // (A name built with += rather than "r" + …: GCC 12 warns falsely about that operator+.)
        std::string resign_id = "r";
        resign_id += std::to_string(i);
        ann.send({{"type", "resign"}, {"game_id", game_id}, {"id", resign_id}});
        EXPECT_EQ(answer_to(ann, resign_id)["type"], "ack");
        games.push_back(game_id);
    }
    return games;
}

// Watch (a snapshot) and watch since 0 (the events frame) of `game_id` by `viewer`, with ids
// "s" and "e".
std::pair<json, json> watch_twice(test::WsClient& viewer, const std::string& game_id) {
    viewer.send({{"type", "watch"}, {"game_id", game_id}, {"id", "s"}});
    auto snapshot = answer_to(viewer, "s");
    viewer.send({{"type", "watch"}, {"game_id", game_id}, {"since", 0}, {"id", "e"}});
    auto events = answer_to(viewer, "e");
    return {std::move(snapshot), std::move(events)};
}

// A snapshot without what tells who is connected now.
json without_presence(json snapshot) {
    for (auto& player : snapshot["players"]) {
        player.erase("online");
        player.erase("lag_ms");
    }
    return snapshot;
}

TEST(FinishedGames, StrangersRequestsForFinishedGamesKeepNoRoomInMemory) {
    test::TestServer server(test::fast_limits());
    test::WsClient ann(server.port());
    test::WsClient bob(server.port());
    ann.hello(std::nullopt, std::string("Ann"));
    bob.hello(std::nullopt, std::string("Bob"));
    const auto games = resigned_games(ann, bob, 20);
    ASSERT_EQ(games.size(), 20u);
    ann.close();
    bob.close();
    ASSERT_TRUE(rooms_in_memory_become(server.port(), 0)) << "the players left every game";

    test::WsClient stranger(server.port());
    stranger.hello(std::nullopt, std::string("Zed"));
    for (std::size_t i = 0; i < games.size(); ++i) {
        stranger.send({{"type", "draw_offer"}, {"game_id", games[i]}, {"id", static_cast<int>(i)}});
        const auto refused = answer_to(stranger, static_cast<int>(i));
        EXPECT_EQ(refused["type"], "error");
        EXPECT_EQ(refused["code"], "not_a_player") << refused.dump();
        EXPECT_EQ(refused["game_id"], games[i]);
    }
    stranger.sync();
    EXPECT_EQ(rooms_in_memory_now(server.port()), 0) << "no finished room stays for a stranger";
    EXPECT_EQ(stranger.schema_violations(), 0u);
}

TEST(FinishedGames, AStrangersWatchGetsTheLoadedRoomsSnapshotAndLoadsNoRoom) {
    test::TestServer server(test::fast_limits());
    std::string game_id;
    std::string ann_token;
    {
        test::Table table(server.port(), "chesica");
        ASSERT_FALSE(table.game_id.empty());
        game_id = table.game_id;
        ann_token = table.ann_token;
        ASSERT_EQ(test::play_chess(table, test::capture_first, 4).moves.size(), 4u);
        table.sam->send({{"type", "chat"}, {"game_id", game_id}, {"text", "nice"}, {"id", "c"}});
        ASSERT_EQ(answer_to(*table.sam, "c")["type"], "ack");
        table.bob->send({{"type", "resign"}, {"game_id", game_id}});
        ASSERT_EQ(table.event(5)["kind"], "game_over");
    }
    ASSERT_TRUE(rooms_in_memory_become(server.port(), 0));

    test::WsClient zed(server.port());
    zed.hello(std::nullopt, std::string("Zed"));
    const auto [from_store, events_from_store] = watch_twice(zed, game_id);
    ASSERT_EQ(from_store["type"], "snapshot") << from_store.dump();
    EXPECT_EQ(from_store["version"], 5);
    EXPECT_EQ(from_store["moves"].size(), 4u);
    EXPECT_EQ(from_store["result"], (json{{"winner", "white"}, {"reason", "resignation"}}));
    ASSERT_EQ(from_store["chat"].size(), 1u);
    EXPECT_EQ(from_store["chat"][0]["text"], "nice") << "the spectators' channel";
    EXPECT_EQ(from_store["spectators"], 1) << "the viewer, as a loaded room counts it";
    EXPECT_FALSE(from_store["players"][0]["online"].get<bool>());
    ASSERT_EQ(events_from_store["type"], "events");
    EXPECT_EQ(events_from_store["events"].size(), 5u);
    zed.sync();
    EXPECT_EQ(rooms_in_memory_now(server.port()), 0) << "the watch loaded no room";

    // The same game from its loaded room (Ann's watch loads it), for another spectator.
    test::WsClient ann(server.port());
    ann.hello(ann_token);
    ann.send({{"type", "watch"}, {"game_id", game_id}, {"id", "a"}});
    ASSERT_EQ(answer_to(ann, "a")["type"], "snapshot");
    EXPECT_EQ(rooms_in_memory_now(server.port()), 1) << "a player's watch loads the room";
    test::WsClient yan(server.port());
    yan.hello(std::nullopt, std::string("Yan"));
    const auto [from_room, events_from_room] = watch_twice(yan, game_id);
    EXPECT_EQ(without_presence(from_store), without_presence(from_room));
    EXPECT_EQ(events_from_store, events_from_room);
    EXPECT_EQ(zed.schema_violations(), 0u);
}

TEST(FinishedGames, StrangersGetTheAnswersOfTheLoadedRoom) {
    test::TestServer server(test::fast_limits());
    std::string game_id;
    std::string ann_token;
    {
        test::Table table(server.port(), "chesica");
        ASSERT_FALSE(table.game_id.empty());
        game_id = table.game_id;
        ann_token = table.ann_token;
        table.ann->send({{"type", "resign"}, {"game_id", game_id}});
        ASSERT_EQ(table.event(1)["kind"], "game_over");
    }
    ASSERT_TRUE(rooms_in_memory_become(server.port(), 0));
    // A stranger's requests after the end, in order: a chat line before and after a watch, an
    // unwatch last.
    const std::vector<json> requests = {
        {{"type", "chat"}, {"game_id", game_id}, {"text", "hello?"}},
        {{"type", "watch"}, {"game_id", game_id}, {"full", true}},
        {{"type", "move"}, {"game_id", game_id}, {"move", "e2-e4"}},
        {{"type", "resign"}, {"game_id", game_id}},
        {{"type", "draw_offer"}, {"game_id", game_id}},
        {{"type", "draw_accept"}, {"game_id", game_id}},
        {{"type", "rematch_offer"}, {"game_id", game_id}},
        {{"type", "rematch_accept"}, {"game_id", game_id}},
        {{"type", "takeback_offer"}, {"game_id", game_id}},
        {{"type", "abort"}, {"game_id", game_id}},
        {{"type", "claim_victory"}, {"game_id", game_id}},
        {{"type", "moretime"}, {"game_id", game_id}},
        {{"type", "spectator_chat"}, {"game_id", game_id}, {"open", false}},
        {{"type", "chat"}, {"game_id", game_id}, {"text", "gg"}},
        {{"type", "unwatch"}, {"game_id", game_id}},
    };
    const auto ask_all = [&](test::WsClient& who) {
        std::vector<json> answers;
        for (std::size_t i = 0; i < requests.size(); ++i) {
            auto request = requests[i];
            request["id"] = static_cast<int>(i);
            who.send(request);
            auto answer = answer_to(who, static_cast<int>(i));
            if (answer.value("type", "") == "snapshot") {
                answer = without_presence(answer);
            }
            answers.push_back(std::move(answer));
        }
        return answers;
    };

    test::WsClient zed(server.port());
    zed.hello(std::nullopt, std::string("Zed"));
    const auto from_store = ask_all(zed);
    zed.sync();
    EXPECT_EQ(rooms_in_memory_now(server.port()), 0);
    EXPECT_EQ(from_store[0]["code"], "game_over") << "a spectator's chat closed with the game";
    EXPECT_EQ(from_store[1]["type"], "snapshot");
    EXPECT_EQ(from_store[2]["code"], "not_a_player");
    EXPECT_EQ(from_store[2]["game_id"], game_id);
    EXPECT_EQ(from_store[13]["code"], "game_over");
    EXPECT_EQ(from_store[14]["type"], "ack");
    EXPECT_EQ(from_store[14]["version"], 1);

    test::WsClient ann(server.port());
    ann.hello(ann_token);
    ann.send({{"type", "watch"}, {"game_id", game_id}, {"id", "a"}});
    ASSERT_EQ(answer_to(ann, "a")["type"], "snapshot");
    test::WsClient yan(server.port());
    yan.hello(std::nullopt, std::string("Yan"));
    const auto from_room = ask_all(yan);
    ASSERT_EQ(from_store.size(), from_room.size());
    for (std::size_t i = 0; i < from_store.size(); ++i) {
        EXPECT_EQ(from_store[i], from_room[i]) << requests[i].dump();
    }
}

TEST(FinishedGames, AFinishedPrivateGameShowsItselfOnlyWithItsKey) {
    test::TestServer server(test::fast_limits());
    std::string game_id;
    std::string key;
    {
        test::Table table(server.port(), "chesica", 1, true);
        ASSERT_FALSE(table.game_id.empty());
        game_id = table.game_id;
        key = table.snapshot(*table.ann).value("access_key", "");
        table.ann->send({{"type", "resign"}, {"game_id", game_id}});
        ASSERT_EQ(table.event(1)["kind"], "game_over");
    }
    ASSERT_FALSE(key.empty());
    ASSERT_TRUE(rooms_in_memory_become(server.port(), 0));
    test::WsClient zed(server.port());
    zed.hello(std::nullopt, std::string("Zed"));
    zed.send({{"type", "watch"}, {"game_id", game_id}, {"id", "no key"}});
    const auto refused = answer_to(zed, "no key");
    EXPECT_EQ(refused["code"], "forbidden");
    EXPECT_EQ(refused["game_id"], game_id);
    zed.send({{"type", "watch"}, {"game_id", game_id}, {"key", key}, {"id", "key"}});
    const auto shown = answer_to(zed, "key");
    EXPECT_EQ(shown["type"], "snapshot");
    EXPECT_FALSE(shown.contains("access_key")) << "only the players' snapshots carry it";
    zed.sync();
    EXPECT_EQ(rooms_in_memory_now(server.port()), 0);
}

}  // namespace
