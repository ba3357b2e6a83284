// Issue 23: chat is not a room event. The players' lines go to the players, the spectators' to the
// spectators; lines are stored beside the log (they survive a restart) and come back in snapshots
// and catch-ups; the players may close the spectators' chat, which closes anyway once the game is
// over; limits per player, per address and the length limit hold.
#include <gtest/gtest.h>

#include <algorithm>

#include "server/game_table.h"
#include "server/limits.h"

namespace {

using test::json;

// Sends a chat line with `id` and returns the answer to it (ack or error).
json say(test::WsClient& who, const std::string& game_id, const std::string& text,
         const std::string& id) {
    who.send({{"type", "chat"}, {"game_id", game_id}, {"text", text}, {"id", id}});
    return who.wait_for([&](const json& m) { return m.value("id", json()) == id; });
}

// Whether `client` received a chat line with `text` so far.
bool heard(const test::WsClient& client, const std::string& text) {
    const auto lines = client.history_of("chat");
    return std::any_of(lines.begin(), lines.end(),
                       [&](const json& m) { return m["line"].value("text", "") == text; });
}

std::vector<std::string> texts(const json& chat) {
    std::vector<std::string> out;
    for (const auto& line : chat) {
        out.push_back(line.value("text", ""));
    }
    return out;
}

TEST(RoomChat, ChannelsAreKeptApartAndChatIsNotAnEvent) {
    test::TestServer server(test::fast_limits());
    test::Table table(server.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    const auto ack = say(*table.ann, table.game_id, "good luck", "a");
    EXPECT_EQ(ack["type"], "ack");
    EXPECT_EQ(ack["version"], 0) << "a chat line is no room event";
    const auto line =
        table.bob->wait_for([](const json& m) { return m.value("type", "") == "chat"; });
    EXPECT_EQ(line["game_id"], table.game_id);
    EXPECT_EQ(line["line"]["channel"], "players");
    EXPECT_EQ(line["line"]["from"], "Ann");
    EXPECT_EQ(line["line"]["seat"], "white");
    EXPECT_EQ(line["line"]["text"], "good luck");

    EXPECT_EQ(say(*table.sam, table.game_id, "hi all", "s")["type"], "ack");
    const auto spectator_line =
        table.sam->wait_for([](const json& m) { return m.value("type", "") == "chat"; });
    EXPECT_EQ(spectator_line["line"]["channel"], "spectators");
    EXPECT_EQ(spectator_line["line"]["from"], "Sam");
    EXPECT_TRUE(spectator_line["line"]["seat"].is_null());

    table.room_barrier(*table.ann);
    table.room_barrier(*table.bob);
    table.room_barrier(*table.sam);
    EXPECT_FALSE(heard(*table.ann, "hi all")) << "players do not read the spectators' chat";
    EXPECT_FALSE(heard(*table.bob, "hi all"));
    EXPECT_FALSE(heard(*table.sam, "good luck")) << "spectators do not read the players' chat";
    EXPECT_TRUE(test::events_of(*table.sam, table.game_id).empty()) << "no event was made";

    const auto players_view = table.snapshot(*table.bob);
    EXPECT_EQ(texts(players_view["chat"]), std::vector<std::string>{"good luck"});
    EXPECT_EQ(players_view["version"], 0);
    EXPECT_EQ(texts(table.snapshot(*table.sam)["chat"]), std::vector<std::string>{"hi all"});
    EXPECT_EQ(table.sam->schema_violations(), 0u);
    EXPECT_EQ(table.ann->schema_violations(), 0u);

    // The lines are in the store, each in its channel.
    const auto stored = server.store().chat_lines(table.game_id);
    ASSERT_TRUE(stored.ok()) << stored.error();
    ASSERT_EQ(stored->size(), 2u);
    EXPECT_EQ((*stored)[0].channel, "players");
    EXPECT_EQ((*stored)[1].channel, "spectators");
}

TEST(RoomChat, LimitsHold) {
    test::TestServer server(test::fast_limits());
    test::Table table(server.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    test::WsClient stranger(server.port());
    stranger.hello(std::nullopt, std::string("Zed"));
    EXPECT_EQ(say(stranger, table.game_id, "hi", "z")["code"], "not_a_player");
    for (int i = 0; i < server::chat_burst; ++i) {
        EXPECT_EQ(say(*table.ann, table.game_id, "x", "ok" + std::to_string(i))["type"], "ack");
    }
    EXPECT_EQ(say(*table.ann, table.game_id, "one too many", "f")["code"], "rate_limited");
    EXPECT_EQ(say(*table.bob, table.game_id, "my turn", "b")["type"], "ack")
        << "the limit is per player";
    EXPECT_EQ(say(*table.bob, table.game_id, std::string(301, 'z'), "l")["code"], "chat_too_long");
    EXPECT_EQ(table.snapshot(*table.ann)["chat"].size(),
              static_cast<std::size_t>(server::chat_burst) + 1);
}

TEST(RoomChat, SpectatorsMayChatOnlyWhileTheGamePlays) {
    test::TestServer server(test::fast_limits());
    test::Table table(server.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    EXPECT_EQ(say(*table.sam, table.game_id, "hello", "during")["type"], "ack");
    table.ann->send({{"type", "resign"}, {"game_id", table.game_id}});
    table.sam->wait_for([](const json& m) {
        return m.value("type", "") == "event" && m["event"].value("kind", "") == "game_over";
    });
    const auto closed = say(*table.sam, table.game_id, "hello", "after");
    EXPECT_EQ(closed["type"], "error");
    EXPECT_EQ(closed["code"], "game_over");
    EXPECT_EQ(say(*table.bob, table.game_id, "gg", "gg")["type"], "ack")
        << "the players still talk";
}

TEST(RoomChat, SnapshotsSayTheSpectatorsChatIsClosedOnceTheGameIsOver) {
    test::TestServer server(test::fast_limits());
    test::Table table(server.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    EXPECT_TRUE(table.snapshot(*table.sam)["spectator_chat"].get<bool>());
    table.ann->send({{"type", "resign"}, {"game_id", table.game_id}});
    EXPECT_EQ(table.event(1)["kind"], "game_over");
    EXPECT_FALSE(table.snapshot(*table.sam)["spectator_chat"].get<bool>())
        << "the spectator's line would be refused (game_over)";
    EXPECT_EQ(say(*table.sam, table.game_id, "hello", "after")["code"], "game_over");
    EXPECT_FALSE(table.snapshot(*table.ann)["spectator_chat"].get<bool>());
}

TEST(RoomChat, ChatErrorsNameTheirGame) {
    test::TestServer server(test::fast_limits());
    test::Table table(server.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    const auto too_long = say(*table.bob, table.game_id, std::string(301, 'z'), "long");
    EXPECT_EQ(too_long["code"], "chat_too_long");
    EXPECT_EQ(too_long["game_id"], table.game_id);
    // Without `open` (the client schema forbids it: sent unchecked).
    table.ann->send_raw(
        json{{"type", "spectator_chat"}, {"game_id", table.game_id}, {"id", "open?"}}.dump());
    const auto missing = table.ann->wait_error("open?");
    EXPECT_EQ(missing["code"], "missing_field");
    EXPECT_EQ(missing["game_id"], table.game_id);
    EXPECT_EQ(table.bob->schema_violations(), 0u);
}

TEST(RoomChat, PlayersCloseAndReopenTheSpectatorsChat) {
    test::TestServer server(test::fast_limits());
    test::Table table(server.port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    EXPECT_TRUE(table.start["spectator_chat"].get<bool>());
    const auto set = [&](test::WsClient& who, bool open, const std::string& id) {
        who.send(
            {{"type", "spectator_chat"}, {"game_id", table.game_id}, {"open", open}, {"id", id}});
        return who.wait_for([&](const json& m) { return m.value("id", json()) == id; });
    };
    EXPECT_EQ(set(*table.sam, false, "sam")["code"], "not_a_player");
    EXPECT_EQ(set(*table.bob, false, "close")["type"], "ack");
    const auto closed = table.event(++table.version);
    EXPECT_EQ(closed["kind"], "spectator_chat");
    EXPECT_EQ(closed["by"], "black");
    EXPECT_EQ(closed["open"], false);
    const auto refused = say(*table.sam, table.game_id, "hello?", "s1");
    EXPECT_EQ(refused["code"], "chat_closed");
    EXPECT_FALSE(refused.value("message", "").empty());
    EXPECT_EQ(say(*table.ann, table.game_id, "quiet now", "a1")["type"], "ack");
    EXPECT_FALSE(table.snapshot(*table.sam)["spectator_chat"].get<bool>());
    // Saying what is already so changes nothing.
    EXPECT_EQ(set(*table.ann, false, "again")["version"], table.version);
    EXPECT_EQ(set(*table.ann, true, "open")["type"], "ack");
    EXPECT_EQ(table.event(++table.version)["open"], true);
    EXPECT_EQ(say(*table.sam, table.game_id, "thanks", "s2")["type"], "ack");
    EXPECT_EQ(table.sam->schema_violations(), 0u);
}

TEST(RoomChat, LinesSurviveARestart) {
    test::TestServer server(test::fast_limits());
    std::string game_id;
    {
        test::Table table(server.port(), "chessence");
        ASSERT_FALSE(table.game_id.empty());
        game_id = table.game_id;
        EXPECT_EQ(say(*table.ann, game_id, "before", "a")["type"], "ack");
        EXPECT_EQ(say(*table.sam, game_id, "watching", "s")["type"], "ack");
    }
    server.restart();
    test::WsClient sam(server.port());
    sam.hello(std::nullopt, std::string("Sam2"));
    sam.send({{"type", "watch"}, {"game_id", game_id}, {"id", "w"}});
    const auto snapshot = sam.wait_for([](const json& m) { return m.value("id", json()) == "w"; });
    ASSERT_EQ(snapshot["type"], "snapshot") << snapshot.dump();
    EXPECT_EQ(texts(snapshot["chat"]), std::vector<std::string>{"watching"});
    // A catch-up brings the chat whole: it has no versions to resume from.
    sam.send({{"type", "watch"}, {"game_id", game_id}, {"since", 0}, {"id", "c"}});
    const auto caught_up = sam.wait_for([](const json& m) { return m.value("id", json()) == "c"; });
    ASSERT_EQ(caught_up["type"], "events") << caught_up.dump();
    EXPECT_EQ(texts(caught_up["chat"]), std::vector<std::string>{"watching"});
    EXPECT_EQ(sam.schema_violations(), 0u);
}

}  // namespace
