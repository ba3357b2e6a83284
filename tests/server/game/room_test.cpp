// Rooms on a real server: whole games of every variant to a result by the rules, seen in order by a
// spectator; draws, resignation, rematch and spectator counts (chat: room_chat_test.cpp).
#include "server/game/room.h"

#include <gtest/gtest.h>

#include <set>

#include "server/game_table.h"

namespace {

using test::json;
using test::Table;

// Checks what a spectator saw: gapless versions from `first`, the moves in order, the result.
void expect_spectator_saw(const Table& table, const test::Played& played, std::int64_t first) {
    const auto events = test::events_of(*table.sam, table.game_id);
    std::vector<std::string> moves;
    std::int64_t expected = first;
    json result;
    for (const auto& message : events) {
        EXPECT_EQ(message["version"], expected) << message.dump();
        expected = message["version"].get<std::int64_t>() + 1;
        if (message["event"]["kind"] == "move") {
            moves.push_back(message["event"]["move"]);
        }
        if (message["event"]["kind"] == "game_over") {
            result = message["event"]["result"];
        }
    }
    EXPECT_EQ(moves, played.moves);
    EXPECT_EQ(result, played.result);
    EXPECT_EQ(table.sam->schema_violations(), 0u);
}

class Rooms : public ::testing::Test {
protected:
    test::TestServer server_{test::fast_limits_without_lag()};
};

TEST_F(Rooms, ChesicaGameEndsByTheRules) {
    Table table(server_.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    EXPECT_EQ(table.start["variant"], "chesica");
    EXPECT_EQ(table.start["to_move"], "white");
    EXPECT_EQ(table.start["version"], 0);
    EXPECT_FALSE(table.start["legal"].empty());
    const auto played = test::play_chess(table, test::capture_first, 3000);
    ASSERT_TRUE(played.result.is_object()) << "no result after " << played.moves.size() << " plies";
    const std::set<std::string> reasons = {"all_captured", "no_legal_moves", "hundred_ply_rule"};
    EXPECT_TRUE(reasons.count(played.result["reason"])) << played.result.dump();
    table.snapshot(*table.sam);  // a barrier: every earlier event reached the spectator
    expect_spectator_saw(table, played, 1);
    const auto stored = server_.store().game(table.game_id).value();
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->status, "finished");
    EXPECT_EQ(json::parse(stored->result_json), played.result);
    const auto api =
        test::parse(test::http_get(server_.port(), "/api/games/" + table.game_id).body);
    EXPECT_EQ(api["moves"].get<std::vector<std::string>>(), played.moves);
    EXPECT_EQ(api["result"], played.result);
}

TEST_F(Rooms, ChessenceGameEndsByTheRules) {
    Table table(server_.port(), "chessence");
    ASSERT_FALSE(table.game_id.empty());
    EXPECT_EQ(table.start["board"]["files"], 6);
    EXPECT_EQ(table.start["board"]["ranks"], 9);
    EXPECT_EQ(table.start["board"]["reserves"], json::array({3, 3}));
    const auto played = test::play_chess(table, test::capture_first, 3000);
    ASSERT_TRUE(played.result.is_object()) << "no result after " << played.moves.size() << " plies";
    const std::set<std::string> reasons = {"checkmate", "stalemate", "threefold_repetition",
                                           "hundred_ply_rule"};
    EXPECT_TRUE(reasons.count(played.result["reason"])) << played.result.dump();
    table.snapshot(*table.sam);
    expect_spectator_saw(table, played, 1);
}

TEST_F(Rooms, ChessenceShortGameEndsInCheckmate) {
    const auto line = test::find_game_ending(core::VariantId::chessence, "checkmate", 60, 3000);
    ASSERT_FALSE(line.empty()) << "no checkmate found by the playouts";
    Table table(server_.port(), "chessence");
    ASSERT_FALSE(table.game_id.empty());
    const auto played =
        test::play_chess(table, test::scripted(line), static_cast<int>(line.size()));
    EXPECT_EQ(played.moves, line);
    ASSERT_TRUE(played.result.is_object());
    EXPECT_EQ(played.result["reason"], "checkmate");
    // The side that gave mate made the last move.
    EXPECT_EQ(played.result["winner"], line.size() % 2 == 1 ? "white" : "black");
    table.snapshot(*table.sam);
    expect_spectator_saw(table, played, 1);
}

TEST_F(Rooms, SnidermanOneRoundMatchPlaysCapturesUntilNoneRemain) {
    Table table(server_.port(), "sniderman", 1);
    ASSERT_FALSE(table.game_id.empty());
    ASSERT_TRUE(table.start["match"].is_object());
    EXPECT_EQ(table.start["match"]["phase"], "naming");
    EXPECT_EQ(table.start["match"]["rounds"], 1);
    EXPECT_EQ(table.start["version"], 1);  // round_started
    const auto played = test::play_sniderman(table);
    ASSERT_TRUE(played.result.is_object());
    EXPECT_EQ(played.result["reason"], "match_won");
    EXPECT_GE(played.moves.size(), 1u);
    EXPECT_LE(played.moves.size(), 15u);
    const auto snapshot = table.snapshot(*table.sam);
    EXPECT_EQ(snapshot["match"]["phase"], "finished");
    EXPECT_EQ(snapshot["match"]["winner"], played.result["winner"]);
    expect_spectator_saw(table, played, 2);  // the spectator's snapshot already held round 1's deal
}

TEST_F(Rooms, SnidermanObjectsAreNotReusedAndPhasesAreEnforced) {
    Table table(server_.port(), "sniderman", 3);
    ASSERT_FALSE(table.game_id.empty());
    const std::string namer = table.start["match"]["namer"];
    const std::string chooser = namer == "player0" ? "player1" : "player0";
    auto& chooser_client = table.seat_named(chooser);
    const auto before = table.snapshot(*table.sam);
    chooser_client.send(
        {{"type", "name_object"}, {"game_id", table.game_id}, {"object", 3}, {"id", "n"}});
    EXPECT_EQ(chooser_client.wait_error("n")["code"], "not_your_turn");
    chooser_client.send(
        {{"type", "move"}, {"game_id", table.game_id}, {"move", "a1xb2"}, {"id", "m"}});
    EXPECT_EQ(chooser_client.wait_error("m")["code"], "wrong_phase");
    chooser_client.send(
        {{"type", "choose_side"}, {"game_id", table.game_id}, {"side", "odd"}, {"id", "c"}});
    EXPECT_EQ(chooser_client.wait_error("c")["code"], "wrong_phase");
    chooser_client.send({{"type", "draw_offer"}, {"game_id", table.game_id}, {"id", "d"}});
    EXPECT_EQ(chooser_client.wait_error("d")["code"], "not_supported");
    EXPECT_EQ(table.snapshot(*table.sam), before);

    test::Played played;
    const auto next = test::play_round(table, namer, 3, played);
    ASSERT_EQ(next.value("kind", ""), "round_started");
    auto& next_namer = table.seat_named(next["namer"]);
    const auto objects = next["available_objects"];
    EXPECT_EQ(std::count(objects.begin(), objects.end(), 3), 0);
    const auto mid = table.snapshot(*table.sam);
    next_namer.send(
        {{"type", "name_object"}, {"game_id", table.game_id}, {"object", 3}, {"id", "again"}});
    EXPECT_EQ(next_namer.wait_error("again")["code"], "object_used");
    EXPECT_EQ(table.snapshot(*table.sam), mid);
    EXPECT_EQ(mid["match"]["round"], 2);
    EXPECT_EQ(mid["match"]["records"].size(), 2u);
    EXPECT_EQ(mid["match"]["records"][0]["object"], 3);
}

TEST_F(Rooms, DrawOffersAndAgreement) {
    Table table(server_.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    table.ann->send({{"type", "draw_offer"}, {"game_id", table.game_id}});
    auto event = table.event(++table.version);
    EXPECT_EQ(event, (json{{"kind", "draw_offered"}, {"by", "white"}}));
    EXPECT_EQ(table.snapshot(*table.sam)["draw_offer"], "white");
    table.bob->send({{"type", "draw_decline"}, {"game_id", table.game_id}});
    EXPECT_EQ(table.event(++table.version), (json{{"kind", "draw_declined"}, {"by", "black"}}));
    EXPECT_TRUE(table.snapshot(*table.sam)["draw_offer"].is_null());
    table.bob->send({{"type", "draw_offer"}, {"game_id", table.game_id}});
    EXPECT_EQ(table.event(++table.version)["by"], "black");
    table.ann->send({{"type", "draw_accept"}, {"game_id", table.game_id}});
    event = table.event(++table.version);
    EXPECT_EQ(event["kind"], "game_over");
    EXPECT_EQ(event["result"], (json{{"winner", nullptr}, {"reason", "agreement"}}));
}

TEST_F(Rooms, ResignationAndRematchWithColoursSwapped) {
    Table table(server_.port(), "chessence");
    ASSERT_FALSE(table.game_id.empty());
    table.ann->send({{"type", "resign"}, {"game_id", table.game_id}});
    auto event = table.event(++table.version);
    EXPECT_EQ(event["result"], (json{{"winner", "black"}, {"reason", "resignation"}}));
    table.bob->send({{"type", "rematch_offer"}, {"game_id", table.game_id}});
    EXPECT_EQ(table.event(++table.version), (json{{"kind", "rematch_offered"}, {"by", "black"}}));
    table.ann->send({{"type", "rematch_accept"}, {"game_id", table.game_id}});
    event = table.event(++table.version);
    EXPECT_EQ(event["kind"], "rematch_started");
    const std::string next = event["new_game_id"];
    const auto ann_started = table.ann->wait_for([&](const json& m) {
        return m.value("type", "") == "game_started" && m.value("game_id", "") == next;
    });
    const auto bob_started = table.bob->wait_for([&](const json& m) {
        return m.value("type", "") == "game_started" && m.value("game_id", "") == next;
    });
    EXPECT_EQ(ann_started["you"], "black");
    EXPECT_EQ(bob_started["you"], "white");
    table.ann->send({{"type", "rematch_offer"}, {"game_id", table.game_id}, {"id", "twice"}});
    EXPECT_EQ(table.ann->wait_error("twice")["code"], "wrong_phase");
    // Bob now has White in the new game.
    const auto snapshot = table.bob->wait_for([&](const json& m) {
        return m.value("type", "") == "snapshot" && m.value("game_id", "") == next;
    });
    table.bob->send({{"type", "move"}, {"game_id", next}, {"move", snapshot["legal"][0]}});
    const auto moved = table.ann->wait_for([&](const json& m) {
        return m.value("type", "") == "event" && m.value("game_id", "") == next;
    });
    EXPECT_EQ(moved["event"]["by"], "white");
}

TEST_F(Rooms, PresenceIsPushedWhenAPlayerComesAndGoes) {
    Table table(server_.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    auto presence_is = [&](test::WsClient& client, bool white, bool black) {
        return client.wait_for([&](const json& m) {
            return m.value("type", "") == "presence" &&
                   m["online"].value("white", !white) == white &&
                   m["online"].value("black", !black) == black;
        });
    };
    EXPECT_TRUE(presence_is(*table.ann, true, true).is_object());
    table.bob.reset();  // Bob's only connection closes
    EXPECT_TRUE(presence_is(*table.sam, true, false).is_object());
    EXPECT_TRUE(presence_is(*table.ann, true, false).is_object());
    EXPECT_EQ(table.snapshot(*table.sam)["players"][1]["online"], false);
    test::WsClient back(server_.port());
    ASSERT_FALSE(table.bob_token.empty());
    back.hello(table.bob_token);
    back.send({{"type", "watch"}, {"game_id", table.game_id}});
    EXPECT_TRUE(presence_is(*table.sam, true, true).is_object());
    EXPECT_EQ(table.snapshot(*table.sam)["players"][1]["online"], true);
}

TEST_F(Rooms, SpectatorCountIsPushedWhenItChanges) {
    Table table(server_.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    auto count_is = [&](test::WsClient& client, int count) {
        return client.wait_for([&](const json& m) {
            return m.value("type", "") == "spectators" && m.value("count", -1) == count;
        });
    };
    EXPECT_TRUE(count_is(*table.ann, 1).is_object());
    {
        test::WsClient second(server_.port());
        second.hello();
        second.send({{"type", "watch"}, {"game_id", table.game_id}});
        EXPECT_EQ(second.wait_type("snapshot")["spectators"], 2);
        EXPECT_TRUE(count_is(*table.bob, 2).is_object());
    }
    EXPECT_TRUE(count_is(*table.bob, 1).is_object());
    table.sam->send({{"type", "unwatch"}, {"game_id", table.game_id}});
    EXPECT_TRUE(count_is(*table.ann, 0).is_object());
}

}  // namespace
