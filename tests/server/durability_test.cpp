// End to end: live games on a real chessence-server backed by SQLite; the server is SIGKILLed in
// the middle of a game and restarted on the same database; every move a player saw acknowledged is
// still there, the players get their seats back with their tokens, and play goes on.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "server/live_server.h"
#include "server/storage_test_util.h"

namespace {

using live_test::Client;
using live_test::json;
using live_test::ServerProcess;

struct Player {
    std::unique_ptr<Client> client;
    std::string token;
    std::string id;
    std::string side;  // "white" / "black"
};

// hello (with a token when reconnecting) → welcome.
json hello(Player& p, const std::string& name) {
    json request{{"type", "hello"}, {"protocol", 1}, {"name", name}};
    if (!p.token.empty()) {
        request["token"] = p.token;
    }
    p.client->send(request);
    auto welcome = p.client->next_of("welcome");
    EXPECT_TRUE(welcome.has_value()) << "no welcome for " << name;
    if (!welcome) {
        return json();
    }
    p.token = welcome->value("token", p.token);
    p.id = (*welcome)["player"].value("id", "");
    return *welcome;
}

// The mover plays legal[pick % n]; returns the acknowledged event (the mover's own broadcast).
std::optional<json> play_one(Player& mover, const std::string& game_id, const json& legal,
                             std::size_t pick) {
    const auto move = legal[pick % legal.size()].get<std::string>();
    mover.client->send({{"type", "move"}, {"game_id", game_id}, {"move", move}, {"id", pick}});
    auto reply = mover.client->next([&](const json& m) {
        return (m.value("type", "") == "event" && m["event"].value("kind", "") == "move") ||
               m.value("type", "") == "error";
    });
    if (!reply || reply->value("type", "") == "error") {
        ADD_FAILURE() << "move " << move << " not acknowledged: " << (reply ? reply->dump() : "");
        return std::nullopt;
    }
    EXPECT_EQ((*reply)["event"].value("move", ""), move);
    return reply;
}

TEST(ServerDurability, AcknowledgedMovesSurviveSigkillAndPlayContinues) {
    storage_test::TempDir dir;
    const auto db = dir.file("games.db");
    const auto web_root = dir.file("web");
    std::filesystem::create_directories(web_root);
    const auto log = dir.file("server.log");

    Player white;
    Player black;
    std::string game_id;
    std::vector<std::string> acked_moves;
    std::int64_t last_acked_version = 0;
    std::string in_flight;
    {
        ServerProcess server(db, web_root, log);
        ASSERT_NE(server.port(), 0) << "the server did not start; see " << log;
        white.client = std::make_unique<Client>(server.port());
        black.client = std::make_unique<Client>(server.port());
        hello(white, "Walter");
        hello(black, "Bella");
        ASSERT_FALSE(white.token.empty() || black.token.empty());

        white.client->send({{"type", "seek_create"}, {"variant", "chessence"}, {"side", "white"}});
        auto created = white.client->next_of("seek_created");
        ASSERT_TRUE(created.has_value());
        black.client->send(
            {{"type", "seek_accept"}, {"seek_id", (*created)["seek"].value("seek_id", "")}});
        auto started = black.client->next_of("game_started");
        ASSERT_TRUE(started.has_value());
        game_id = started->value("game_id", "");
        ASSERT_EQ(started->value("you", ""), "black");
        auto snapshot = black.client->next_of("snapshot");
        ASSERT_TRUE(snapshot.has_value());
        ASSERT_TRUE(white.client->next_of("game_started").has_value());

        json legal = (*snapshot)["legal"];
        std::string to_move = snapshot->value("to_move", "");
        for (std::size_t ply = 0; ply < 12; ++ply) {
            ASSERT_FALSE(legal.empty()) << "the game ended early";
            Player& mover = to_move == "white" ? white : black;
            auto event = play_one(mover, game_id, legal, ply * 7 + 2);
            ASSERT_TRUE(event.has_value());
            acked_moves.push_back((*event)["event"].value("move", ""));
            last_acked_version = event->value("version", std::int64_t{0});
            legal = (*event)["event"]["legal"];
            to_move = (*event)["event"].value("to_move", "");
        }
        // One more move is sent and the server dies before anyone can see its fate.
        Player& mover = to_move == "white" ? white : black;
        in_flight = legal[0].get<std::string>();
        mover.client->send({{"type", "move"}, {"game_id", game_id}, {"move", in_flight}});
        server.kill_now();
    }
    white.client.reset();
    black.client.reset();

    ServerProcess server(db, web_root, log);
    ASSERT_NE(server.port(), 0) << "the server did not restart on its database; see " << log;
    white.client = std::make_unique<Client>(server.port());
    black.client = std::make_unique<Client>(server.port());
    const auto white_id = white.id;
    const auto welcome = hello(white, "Walter");
    EXPECT_EQ(white.id, white_id) << "the token restores the identity";
    ASSERT_TRUE(welcome.contains("games"));
    EXPECT_NE(std::find(welcome["games"].begin(), welcome["games"].end(), game_id),
              welcome["games"].end())
        << "the unfinished game is listed: " << welcome.dump();
    hello(black, "Bella");

    // Everything acknowledged is there, in order; the in-flight move may or may not be.
    white.client->send({{"type", "watch"}, {"game_id", game_id}, {"since", 0}});
    std::vector<std::string> replayed;
    std::int64_t version = 0;
    while (version < last_acked_version) {
        auto event = white.client->next_of("event");
        ASSERT_TRUE(event.has_value()) << "events stop at version " << version;
        ASSERT_EQ(event->value("version", std::int64_t{0}), version + 1) << "gapless, in order";
        version = event->value("version", std::int64_t{0});
        if ((*event)["event"].value("kind", "") == "move") {
            replayed.push_back((*event)["event"].value("move", ""));
        }
    }
    EXPECT_EQ(replayed, acked_moves);

    black.client->send({{"type", "watch"}, {"game_id", game_id}});
    auto snapshot = black.client->next_of("snapshot");
    ASSERT_TRUE(snapshot.has_value());
    std::vector<std::string> moves = (*snapshot)["moves"];
    ASSERT_GE(moves.size(), acked_moves.size());
    ASSERT_LE(moves.size(), acked_moves.size() + 1);
    EXPECT_TRUE(std::equal(acked_moves.begin(), acked_moves.end(), moves.begin()));
    if (moves.size() > acked_moves.size()) {
        EXPECT_EQ(moves.back(), in_flight);
    }

    // Play continues from the restored position, seen by both players.
    const std::string to_move = snapshot->value("to_move", "");
    Player& mover = to_move == "white" ? white : black;
    Player& other = to_move == "white" ? black : white;
    auto event = play_one(mover, game_id, (*snapshot)["legal"], 3);
    ASSERT_TRUE(event.has_value());
    EXPECT_EQ(event->value("version", std::int64_t{0}),
              snapshot->value("version", std::int64_t{0}) + 1);
    auto seen = other.client->next([&](const json& m) {
        return m.value("type", "") == "event" &&
               m.value("version", std::int64_t{0}) == event->value("version", std::int64_t{0});
    });
    EXPECT_TRUE(seen.has_value()) << "the opponent sees the move after the restart";
}

}  // namespace
