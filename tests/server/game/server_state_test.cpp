// Durability and failure: a restart rebuilds unfinished games from their events; a store that
// fails leaves the game as it was; a game that cannot be read is an error, never "no such game".
#include "server/game/server_state.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include <boost/asio/io_context.hpp>

#include "server/game/game_factory.h"
#include "server/game/room.h"
#include "server/game/room_directory.h"
#include "server/game_table.h"
#include "server/test_stores.h"

namespace {

using test::json;

TEST(Durability, ReconnectGetsExactlyTheMissedEvents) {
    test::TestServer server(test::fast_limits());
    test::Table table(server.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    const auto played = test::play_chess(table, test::capture_first, 2);
    ASSERT_EQ(played.moves.size(), 2u);
    const std::string token = table.bob->token();
    table.snapshot(*table.bob);
    const auto seen_before = test::events_of(*table.bob, table.game_id);
    ASSERT_EQ(seen_before.back()["version"], 2);
    table.bob->close();
    table.ann->send({{"type", "spectator_chat"}, {"game_id", table.game_id}, {"open", false}});
    table.event(3);
    table.ann->send({{"type", "draw_offer"}, {"game_id", table.game_id}});
    table.event(4);

    test::WsClient bob(server.port());
    const auto welcome = bob.hello(token);
    EXPECT_EQ(welcome["games"], json::array({table.game_id}));
    bob.send({{"type", "watch"}, {"game_id", table.game_id}, {"since", 2}});
    bob.wait_for([](const json& m) { return m.value("version", 0) == 4; });
    table.snapshot(bob);  // everything the room sent before the snapshot has arrived
    const auto missed = test::events_of(bob, table.game_id);
    ASSERT_EQ(missed.size(), 2u);
    EXPECT_EQ(missed[0]["version"], 3);
    EXPECT_EQ(missed[0]["event"]["kind"], "spectator_chat");
    EXPECT_EQ(missed[1]["version"], 4);
    EXPECT_EQ(missed[1]["event"]["kind"], "draw_offered");

    // From the start, and as a snapshot on request.
    test::WsClient again(server.port());
    again.hello(token);
    again.send({{"type", "watch"}, {"game_id", table.game_id}, {"since", 0}});
    again.wait_for([](const json& m) { return m.value("version", 0) == 4; });
    const auto all = test::events_of(again, table.game_id);
    ASSERT_EQ(all.size(), 4u);
    EXPECT_EQ(all[0]["event"]["move"], played.moves[0]);
    again.send(
        {{"type", "watch"}, {"game_id", table.game_id}, {"since", 1}, {"full", true}, {"id", "f"}});
    const auto snapshot =
        again.wait_for([](const json& m) { return m.value("id", json()) == "f"; });
    EXPECT_EQ(snapshot["type"], "snapshot");
    EXPECT_EQ(snapshot["version"], 4);
    EXPECT_EQ(snapshot["draw_offer"], "white");
    EXPECT_TRUE(snapshot["players"][1]["online"].get<bool>());
}

TEST(Durability, RestartRestoresUnfinishedGamesFromTheirEvents) {
    test::TestServer server(test::fast_limits());
    std::string game_id;
    std::string ann_token;
    std::string bob_token;
    json before;
    {
        test::Table table(server.port(), "chesica");
        ASSERT_FALSE(table.game_id.empty());
        const auto played = test::play_chess(table, test::capture_first, 3);
        ASSERT_EQ(played.moves.size(), 3u);
        before = table.snapshot(*table.sam);
        game_id = table.game_id;
        ann_token = table.ann->token();
        bob_token = table.bob->token();
    }
    server.restart();
    test::WsClient bob(server.port());
    EXPECT_EQ(bob.hello(bob_token)["games"], json::array({game_id}));
    bob.send({{"type", "watch"}, {"game_id", game_id}, {"id", "w"}});
    const auto after = bob.wait_type("snapshot");
    for (const char* key : {"version", "fen", "moves", "to_move", "legal", "board", "result"}) {
        EXPECT_EQ(after[key], before[key]) << key;
    }
    // Play goes on with the next version.
    bob.send({{"type", "move"}, {"game_id", game_id}, {"move", after["legal"][0]}});
    const auto event = bob.wait_type("event");
    EXPECT_EQ(event["version"], 4);
    EXPECT_EQ(event["event"]["by"], "black");
}

TEST(Durability, SnidermanMatchIsRestoredMidMatch) {
    test::TestServer server(test::fast_limits());
    std::string game_id;
    std::string next_namer_token;
    json before;
    {
        test::Table table(server.port(), "sniderman", 3);
        ASSERT_FALSE(table.game_id.empty());
        test::Played played;
        const auto next = test::play_round(table, table.start["match"]["namer"], 5, played);
        ASSERT_EQ(next.value("kind", ""), "round_started");
        before = table.snapshot(*table.sam);
        game_id = table.game_id;
        next_namer_token = table.seat_named(next["namer"]).token();
    }
    server.restart();
    test::WsClient namer(server.port());
    namer.hello(next_namer_token);
    namer.send({{"type", "watch"}, {"game_id", game_id}, {"id", "w"}});
    const auto after = namer.wait_type("snapshot");
    EXPECT_EQ(after["match"], before["match"]);
    EXPECT_EQ(after["version"], before["version"]);
    EXPECT_EQ(after["fen"], before["fen"]);
    namer.send({{"type", "name_object"}, {"game_id", game_id}, {"object", 5}, {"id", "used"}});
    EXPECT_EQ(namer.wait_error("used")["code"], "object_used");
    namer.send({{"type", "name_object"}, {"game_id", game_id}, {"object", 6}});
    const auto named = namer.wait_type("event");
    EXPECT_EQ(named["version"], before["version"].get<int>() + 1);
    EXPECT_EQ(named["event"]["kind"], "object_named");
}

TEST(Durability, FinishedGamesCanBeWatchedAfterARestart) {
    test::TestServer server(test::fast_limits());
    std::string game_id;
    {
        test::Table table(server.port(), "chesica");
        ASSERT_FALSE(table.game_id.empty());
        game_id = table.game_id;
        table.bob->send({{"type", "resign"}, {"game_id", game_id}});
        EXPECT_EQ(table.event(1)["kind"], "game_over");
    }
    server.restart();
    test::WsClient viewer(server.port());
    EXPECT_TRUE(viewer.hello()["games"].empty());
    viewer.send({{"type", "watch"}, {"game_id", game_id}, {"id", "w"}});
    const auto snapshot = viewer.wait_type("snapshot");
    EXPECT_EQ(snapshot["version"], 1);
    EXPECT_EQ(snapshot["result"], (json{{"winner", "white"}, {"reason", "resignation"}}));
    EXPECT_TRUE(snapshot["to_move"].is_null());
    EXPECT_TRUE(snapshot["legal"].empty());
}

TEST(Durability, FailedStorageIsAnInternalErrorAndChangesNothing) {
    auto store = std::make_unique<test::ControlledStore>();
    auto* flaky = store.get();
    test::TestServer server(test::fast_limits(), std::move(store));
    test::Table table(server.port(), "chessence");
    ASSERT_FALSE(table.game_id.empty());
    const auto before = table.snapshot(*table.sam);
    flaky->fail_appends = true;
    table.ann->send(
        {{"type", "move"}, {"game_id", table.game_id}, {"move", before["legal"][0]}, {"id", "m"}});
    EXPECT_EQ(table.ann->wait_error("m")["code"], "internal_error");
    flaky->fail_appends = false;
    EXPECT_EQ(table.snapshot(*table.sam), before);
}

// A state over a store whose reads fail on demand, with two stored players, and a chesica game
// between them that is stored but not in memory (as after a restart, or once it was released).
class StateReads : public ::testing::Test {
protected:
    StateReads() : state_(io_, store_, test::fast_limits(), "") {
        for (const char* id : {"p_ann", "p_bob"}) {
            EXPECT_TRUE(store_.insert_player({id, id, std::string("hash_") + id, 1}).ok());
        }
        server::GameSpec spec;
        spec.variant = core::VariantId::chesica;
        spec.seats = {"p_ann", "p_bob"};
        auto prepared = state_.games().prepare(spec);
        EXPECT_TRUE(prepared.ok()) << prepared.error();
        if (prepared) {
            game_id_ = prepared->room->id();
            EXPECT_TRUE(store_.commit_sync(std::move(prepared->writes)).ok());
        }
    }

    boost::asio::io_context io_;
    test::ReadFailingStore store_;
    server::ServerState state_;
    std::string game_id_;
};

TEST_F(StateReads, ARoomThatCannotBeReadIsAnErrorAndIsLoadedOnceReadsRecover) {
    store_.fail_reads = true;
    const auto failed = state_.rooms().room(game_id_);
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.error().find("test store: cannot read game"), std::string::npos)
        << failed.error();
    EXPECT_EQ(state_.room_count(), 0u) << "a failed load keeps nothing";
    EXPECT_EQ(state_.loaded_room(game_id_), nullptr);
    EXPECT_FALSE(state_.rooms().room("g_none").ok()) << "while reads fail, absence cannot be known";

    store_.fail_reads = false;
    const auto none = state_.rooms().room("g_none");
    ASSERT_TRUE(none.ok()) << none.error();
    EXPECT_EQ(*none, nullptr);
    const auto loaded = state_.rooms().room(game_id_);
    ASSERT_TRUE(loaded.ok()) << loaded.error();
    ASSERT_NE(*loaded, nullptr);
    EXPECT_EQ((*loaded)->id(), game_id_);
    EXPECT_EQ(state_.loaded_room(game_id_), *loaded);
    EXPECT_EQ(state_.room_count(), 1u);
}

TEST_F(StateReads, AnUnknownIdIsNotReadAgainAtOnce) {
    for (int i = 0; i < 100; ++i) {
        ASSERT_EQ(*state_.rooms().room("g_made_up"), nullptr);
    }
    store_.fail_reads = true;
    const auto remembered = state_.rooms().room("g_made_up");
    ASSERT_TRUE(remembered.ok()) << "answered from memory, without a read: " << remembered.error();
    EXPECT_EQ(*remembered, nullptr);
    EXPECT_EQ(store_.failed_reads, 0);
    EXPECT_FALSE(state_.rooms().room("g_other").ok()) << "another id is read, and the read fails";
}

TEST_F(StateReads, AFinishedGameIsLoadedForItsPlayersOnly) {
    // The game ends as its room stores an end: the game_over event with the finished mark.
    const auto over = protocol::events::encode_event_text(
        protocol::events::GameOver{{std::string("white"), "resignation"}});
    ASSERT_TRUE(store_
                    .commit_sync({server::AppendEvents{game_id_, 1, {over}},
                                  server::FinishGame{
                                      game_id_, R"({"winner":"white","reason":"resignation"})", 2}})
                    .ok());
    const auto stranger = state_.rooms().game_for(game_id_, "p_zed");
    ASSERT_TRUE(stranger.ok()) << stranger.error();
    EXPECT_EQ(stranger->room, nullptr);
    ASSERT_TRUE(stranger->finished.has_value()) << "answered from the record";
    EXPECT_EQ(stranger->finished->id, game_id_);
    EXPECT_EQ(state_.room_count(), 0u) << "no room built for a stranger";

    const auto player = state_.rooms().game_for(game_id_, "p_bob");
    ASSERT_TRUE(player.ok()) << player.error();
    ASSERT_NE(player->room, nullptr) << "a player loads the room (a rematch, a line of chat)";
    EXPECT_TRUE(player->room->finished());
    EXPECT_FALSE(player->finished.has_value());
    EXPECT_EQ(state_.room_count(), 1u);
    const auto while_loaded = state_.rooms().game_for(game_id_, "p_zed");
    ASSERT_TRUE(while_loaded.ok());
    EXPECT_EQ(while_loaded->room, player->room) << "a room in memory answers everyone";

    // No such game: remembered as such, as room() remembers it; a failed read is an error.
    const auto none = state_.rooms().game_for("g_none", "p_zed");
    ASSERT_TRUE(none.ok()) << none.error();
    EXPECT_EQ(none->room, nullptr);
    EXPECT_FALSE(none->finished.has_value());
    store_.fail_reads = true;
    EXPECT_TRUE(state_.rooms().game_for("g_none", "p_zed").ok()) << "not read again";
    EXPECT_FALSE(state_.rooms().game_for("g_other", "p_zed").ok());
}

TEST_F(StateReads, RestoringGamesFailsWhenTheStoreCannotBeRead) {
    store_.fail_reads = true;
    const auto failed = state_.games().restore();
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.error().find("test store: cannot read"), std::string::npos) << failed.error();
    EXPECT_EQ(state_.room_count(), 0u);

    store_.fail_reads = false;
    ASSERT_TRUE(state_.games().restore().ok());
    EXPECT_EQ(state_.unfinished_games_of("p_ann"), std::vector<std::string>{game_id_});
}

TEST_F(StateReads, ANewGameWhosePlayersCannotBeReadIsNotPrepared) {
    store_.fail_reads = true;
    server::GameSpec spec;
    spec.seats = {"p_ann", "p_bob"};
    const auto prepared = state_.games().prepare(spec);
    ASSERT_FALSE(prepared.ok());
    EXPECT_NE(prepared.error().find("cannot read the players"), std::string::npos)
        << prepared.error();
}

}  // namespace

// The "owned elsewhere" error names its owner, and only that error does: the directory's answer
// for a game another node owns is read back for the relay (cluster mode).
TEST(OwnedElsewhere, TheErrorNamesItsOwnerAndNoOtherTextDoes) {
    const auto error = server::owned_elsewhere_error("node-2", "g_1");
    EXPECT_TRUE(error.starts_with(server::owned_elsewhere_prefix)) << error;
    EXPECT_EQ(server::owner_named_in(error), "node-2");
    EXPECT_EQ(server::owner_named_in(server::owned_elsewhere_error("a b", "g_2")), "a b");
    EXPECT_EQ(server::owner_named_in(""), "");
    EXPECT_EQ(server::owner_named_in("owned"), "");
    EXPECT_EQ(server::owner_named_in(std::string(server::owned_elsewhere_prefix)), "");
    EXPECT_EQ(server::owner_named_in(std::string(server::owned_elsewhere_prefix) + "try again"),
              "");
    EXPECT_EQ(server::owner_named_in(std::string(server::owned_elsewhere_prefix) + "node n1"), "");
    EXPECT_EQ(server::owner_named_in("cannot store: node n1 owns game g"), "");
}
