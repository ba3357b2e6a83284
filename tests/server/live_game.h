#pragma once
// Players and live games over real WebSocket connections (live_server.h), for the end-to-end
// tests that play on chessence-server processes (durability, cluster).
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/live_server.h"

namespace live_test {

struct Player {
    std::unique_ptr<Client> client;
    std::string token;
    std::string id;
    std::string side;  // "white" / "black"
};

// hello (with a token when reconnecting) → welcome.
inline json hello(Player& p, const std::string& name) {
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
// Other broadcasts still queued for the mover (other games, or version <= after_version) are
// skipped.
inline std::optional<json> play_one(Player& mover, const std::string& game_id, const json& legal,
                                    std::size_t pick, std::int64_t after_version) {
    const auto move = legal[pick % legal.size()].get<std::string>();
    mover.client->send({{"type", "move"}, {"game_id", game_id}, {"move", move}, {"id", pick}});
    auto reply = mover.client->next([&](const json& m) {
        return (m.value("type", "") == "event" && m.value("game_id", "") == game_id &&
                m["event"].value("kind", "") == "move" &&
                m.value("version", std::int64_t{0}) > after_version) ||
               m.value("type", "") == "error";
    });
    if (!reply || reply->value("type", "") == "error") {
        ADD_FAILURE() << "move " << move << " not acknowledged: " << (reply ? reply->dump() : "");
        return std::nullopt;
    }
    EXPECT_EQ((*reply)["event"].value("move", ""), move);
    return reply;
}

// One live game between two players as the test sees it.
struct LiveGame {
    std::string id;
    Player* white = nullptr;
    Player* black = nullptr;
    json legal;
    std::string to_move;
    std::vector<std::string> acked_moves;
    std::int64_t last_acked_version = 0;

    Player& mover() { return to_move == "white" ? *white : *black; }

    // Plays one move and records it once acknowledged.
    bool play(std::size_t pick) {
        if (legal.empty()) {
            ADD_FAILURE() << "game " << id << " ended early";
            return false;
        }
        auto event = play_one(mover(), id, legal, pick, last_acked_version);
        if (!event) {
            return false;
        }
        acked_moves.push_back((*event)["event"].value("move", ""));
        last_acked_version = event->value("version", std::int64_t{0});
        legal = (*event)["event"]["legal"];
        to_move = (*event)["event"].value("to_move", "");
        return true;
    }
};

// `white` seeks a game of `variant` as White (with `clock`, if not null), `black` accepts; both
// are then seated.
inline LiveGame start_game(Player& white, Player& black, const std::string& variant,
                           const json& clock = nullptr) {
    LiveGame game;
    game.white = &white;
    game.black = &black;
    json seek{{"type", "seek_create"}, {"variant", variant}, {"side", "white"}};
    if (!clock.is_null()) {
        seek["clock"] = clock;
    }
    white.client->send(seek);
    auto created = white.client->next_of("seek_created");
    EXPECT_TRUE(created.has_value());
    if (!created) {
        return game;
    }
    black.client->send(
        {{"type", "seek_accept"}, {"seek_id", (*created)["seek"].value("seek_id", "")}});
    auto started = black.client->next_of("game_started");
    EXPECT_TRUE(started.has_value());
    auto snapshot = black.client->next_of("snapshot");
    EXPECT_TRUE(snapshot.has_value());
    EXPECT_TRUE(white.client->next_of("game_started").has_value());
    if (!started || !snapshot) {
        return game;
    }
    EXPECT_EQ(started->value("you", ""), "black");
    game.id = started->value("game_id", "");
    game.legal = (*snapshot)["legal"];
    game.to_move = snapshot->value("to_move", "");
    return game;
}

}  // namespace live_test
