#include "server/game_table.h"

#include <gtest/gtest.h>

#include <random>

namespace test {

std::string capture_first(const json& legal, int ply) {
    for (const auto& move : legal) {
        if (move.get<std::string>().find('x') != std::string::npos) {
            return move;
        }
    }
    if (legal.empty()) {
        return "";
    }
    return legal[static_cast<std::size_t>(ply * 7919) % legal.size()];
}

Table::Table(std::uint16_t port, const std::string& variant_name, int rounds, bool is_private,
             const json& clock)
    : ann(std::make_unique<WsClient>(port)),
      bob(std::make_unique<WsClient>(port)),
      sam(std::make_unique<WsClient>(port)),
      variant(variant_name) {
    ann_token = ann->hello(std::nullopt, std::string("Ann")).value("token", "");
    bob_token = bob->hello(std::nullopt, std::string("Bob")).value("token", "");
    sam->hello(std::nullopt, std::string("Sam"));
    json seek = {{"type", "seek_create"}, {"variant", variant}, {"id", "seek"}};
    if (variant == "sniderman") {
        seek["rounds"] = rounds;
    } else {
        seek["side"] = "white";
    }
    if (is_private) {
        seek["private"] = true;
    }
    if (!clock.is_null()) {
        seek["clock"] = clock;
    }
    ann->send(seek);
    const auto created = ann->wait_type("seek_created");
    if (!created.is_object()) {
        return;
    }
    bob->send({{"type", "seek_accept"}, {"seek_id", created["seek"]["seek_id"]}, {"id", "accept"}});
    const auto started_ann = ann->wait_type("game_started");
    const auto started_bob = bob->wait_type("game_started");
    if (!started_ann.is_object() || !started_bob.is_object()) {
        return;
    }
    game_id = started_ann["game_id"];
    EXPECT_EQ(started_bob["game_id"], game_id);
    EXPECT_EQ(started_ann["you"], variant == "sniderman" ? "player0" : "white");
    EXPECT_EQ(started_bob["you"], variant == "sniderman" ? "player1" : "black");
    const auto ann_snapshot = ann->wait_type("snapshot");
    bob->wait_type("snapshot");
    // A private game's spectator comes with its link: the key its players see.
    json watch = {{"type", "watch"}, {"game_id", game_id}, {"id", "first"}};
    if (ann_snapshot.contains("access_key")) {
        watch["key"] = ann_snapshot["access_key"];
    }
    sam->send(watch);
    start = sam->wait_type("snapshot");
    version = start.value("version", 0);
}

WsClient& Table::seat_named(const std::string& name) {
    return (name == "white" || name == "player0") ? *ann : *bob;
}

json Table::event(std::int64_t wanted) {
    json seen = nullptr;
    // Every open client reads up to the event, as a browser would, so no queue backs up.
    for (auto* client : {ann.get(), bob.get(), sam.get()}) {
        if (client->closed()) {
            continue;
        }
        const auto found = client->wait_for([&](const json& m) {
            return m.value("type", "") == "event" && m.value("game_id", "") == game_id &&
                   m.value("version", 0) == wanted;
        });
        if (client == ann.get()) {
            seen = found.is_object() ? found["event"] : json(nullptr);
        }
    }
    return seen;
}

json Table::snapshot(WsClient& client) {
    const std::string id = "snap" + std::to_string(++requests);
    client.send({{"type", "watch"}, {"game_id", game_id}, {"id", id}});
    auto snapshot = client.wait_for([&](const json& m) {
        return m.value("type", "") == "snapshot" && m.value("id", json()) == id;
    });
    if (snapshot.is_object()) {
        snapshot.erase("id");  // so that snapshots taken at different times compare equal
    }
    return snapshot;
}

void Table::room_barrier(WsClient& client) {
    // Without a pending draw offer this is refused (no_draw_offer, not_supported or not_a_player)
    // by the room, in order after everything the room sent before.
    const std::string id = "barrier" + std::to_string(++requests);
    client.send({{"type", "draw_decline"}, {"game_id", game_id}, {"id", id}});
    client.wait_error(id);
}

Played play_chess(Table& table, const MovePolicy& policy, int max_plies) {
    Played played;
    json legal = table.start["legal"];
    json to_move = table.start["to_move"];
    for (int ply = 0; !to_move.is_null() && ply < max_plies; ++ply) {
        auto& mover = table.seat_named(to_move.get<std::string>());
        const auto move = policy(legal, ply);
        mover.send({{"type", "move"}, {"game_id", table.game_id}, {"move", move}});
        const auto event = table.event(table.version + 1);
        if (!event.is_object() || event.value("kind", "") != "move") {
            ADD_FAILURE() << "expected a move event, got " << event.dump();
            return played;
        }
        ++table.version;
        played.moves.push_back(event["move"]);
        legal = event["legal"];
        to_move = event["to_move"];
    }
    if (to_move.is_null()) {
        const auto over = table.event(table.version + 1);
        EXPECT_EQ(over.value("kind", ""), "game_over");
        ++table.version;
        played.result = over.value("result", json(nullptr));
    }
    return played;
}

json play_round(Table& table, const std::string& namer, int object, Played& played) {
    const std::string chooser = namer == "player0" ? "player1" : "player0";
    table.seat_named(namer).send(
        {{"type", "name_object"}, {"game_id", table.game_id}, {"object", object}});
    auto event = table.event(++table.version);
    EXPECT_EQ(event.value("kind", ""), "object_named");
    EXPECT_EQ(event.value("object", 0), object);
    table.seat_named(chooser).send(
        {{"type", "choose_side"}, {"game_id", table.game_id}, {"side", "odd"}});
    event = table.event(++table.version);
    EXPECT_EQ(event.value("kind", ""), "side_chosen");
    EXPECT_EQ(event.value("odd", ""), chooser);
    const std::string odd = event.value("odd", "");
    const std::string even = event.value("even", "");
    json legal = event.value("legal", json::array());
    json to_move = event.value("to_move", json(nullptr));
    while (!to_move.is_null() && !legal.empty()) {
        auto& mover = table.seat_named(to_move == "odd" ? odd : even);
        mover.send({{"type", "move"}, {"game_id", table.game_id}, {"move", legal[0]}});
        event = table.event(++table.version);
        if (event.value("kind", "") != "move") {
            ADD_FAILURE() << "expected a move, got " << event.dump();
            return nullptr;
        }
        EXPECT_EQ(event.value("by", ""), to_move);
        played.moves.push_back(event["move"]);
        legal = event["legal"];
        to_move = event["to_move"];
    }
    event = table.event(++table.version);
    EXPECT_EQ(event.value("kind", ""), "round_over");
    return table.event(++table.version);
}

Played play_sniderman(Table& table) {
    Played played;
    json match = table.start["match"];
    if (!match.is_object()) {
        ADD_FAILURE() << "no match in the snapshot";
        return played;
    }
    std::string namer = match["namer"];
    json available = json::array();
    for (const auto& object : match["objects"]) {
        if (object["available"].get<bool>()) {
            available.push_back(object["object"]);
        }
    }
    for (int round = 0; round < 9 && !available.empty(); ++round) {
        const auto next = play_round(table, namer, available[0], played);
        if (next.value("kind", "") == "game_over") {
            played.result = next["result"];
            return played;
        }
        if (next.value("kind", "") != "round_started") {
            ADD_FAILURE() << "expected the next round, got " << next.dump();
            return played;
        }
        namer = next.value("namer", "");
        available = next["available_objects"];
    }
    return played;
}

std::vector<std::string> find_game_ending(core::VariantId variant, const std::string& reason,
                                          int max_plies, int tries) {
    std::vector<std::string> best;
    std::mt19937 random(20261121);
    for (int attempt = 0; attempt < tries; ++attempt) {
        auto game = core::make_game(variant);
        if (!game) {
            return {};
        }
        std::vector<std::string> line;
        for (int ply = 0; ply < max_plies && !(*game)->outcome(); ++ply) {
            if (!best.empty() && line.size() + 1 >= best.size()) {
                break;
            }
            const auto legal = (*game)->legal_moves();
            const auto& pick = legal[random() % legal.size()];
            line.push_back(*(*game)->play(pick));
        }
        const auto outcome = (*game)->outcome();
        if (outcome && outcome->reason == reason && (best.empty() || line.size() < best.size())) {
            best = line;
        }
    }
    return best;
}

MovePolicy scripted(std::vector<std::string> line) {
    return [line = std::move(line)](const json& legal, int ply) {
        const auto index = static_cast<std::size_t>(ply);
        return index < line.size() ? line[index] : capture_first(legal, ply);
    };
}

std::vector<json> events_of(const WsClient& client, const std::string& game_id) {
    std::vector<json> found;
    for (const auto& m : client.history()) {
        if (m.value("game_id", "") != game_id) {
            continue;
        }
        if (m.value("type", "") == "event") {
            found.push_back(m);
        } else if (m.value("type", "") == "events") {
            // A catch-up: each of its events as the `event` message it stands for.
            for (const auto& e : m["events"]) {
                found.push_back({{"type", "event"},
                                 {"game_id", game_id},
                                 {"version", e["version"]},
                                 {"event", e["event"]}});
            }
        }
    }
    return found;
}

}  // namespace test
