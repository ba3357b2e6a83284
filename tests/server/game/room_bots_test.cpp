// Games against the computer over real sockets (issue 25): in each of the three games to a
// result, the bot's seat as the snapshot and the lobby show it, its answers to offers, a stale
// answer dropped, bots_busy past the queue, a loss on time, a restart with the bot to move, and a
// shutdown while bots think.
#include <gtest/gtest.h>

#include <future>

#include "server/bots/bot_pool.h"
#include "server/lobby_view.h"
#include "server/log_capture.h"
#include "server/manual_time.h"
#include "server/storage_test_util.h"
#include "server/store/sqlite_store.h"
#include "server/test_support.h"

namespace {

using test::json;
using test::WsClient;
using namespace std::chrono_literals;

// Limits for bot tests: fast clients, no lag probes, and a bot that thinks `think` a move.
server::Limits bot_test_limits(std::chrono::milliseconds think = 20ms) {
    auto limits = test::fast_limits_without_lag();
    limits.bot_move_time = think;
    return limits;
}

// Starts a game against the computer; returns the snapshot that answers it (echoing its id).
// The seek_create that asks for a game against the computer at `level`, with request id `id`.
json computer_game_request(const std::string& variant, int level, const std::string& id) {
    return {{"type", "seek_create"},
            {"variant", variant},
            {"opponent", "computer"},
            {"level", level},
            {"id", id}};
}

json start_bot_game(WsClient& me, const std::string& variant, int level, const json& extra = {}) {
    static int requests = 0;
    const std::string id = "bot" + std::to_string(++requests);
    json message = computer_game_request(variant, level, id);
    for (const auto& [key, value] : extra.items()) {
        message[key] = value;
    }
    me.send(message);
    const auto started = me.wait_for([&](const json& m) {
        return m.value("type", "") == "game_started" && m.value("id", json()) == id;
    });
    EXPECT_TRUE(started.is_object());
    return me.wait_for([&](const json& m) {
        return m.value("type", "") == "snapshot" && m.value("id", json()) == id;
    });
}

// Asks for a game against the computer that the server refuses; returns the error's code.
std::string refused_bot_game(WsClient& me, const std::string& variant, int level,
                             const std::string& id) {
    me.send(computer_game_request(variant, level, id));
    return me.wait_error(id)["code"];
}

json fresh_snapshot(WsClient& me, const std::string& game_id) {
    static int requests = 0;
    const std::string id = "look" + std::to_string(++requests);
    me.send({{"type", "watch"}, {"game_id", game_id}, {"id", id}});
    return me.wait_for([&](const json& m) {
        return m.value("type", "") == "snapshot" && m.value("id", json()) == id;
    });
}

// The event of `game_id` with `version`.
json bot_test_event(WsClient& me, const std::string& game_id, std::int64_t version,
                    std::chrono::milliseconds timeout = 20s) {
    const auto frame = me.wait_for(
        [&](const json& m) {
            return m.value("type", "") == "event" && m.value("game_id", "") == game_id &&
                   m.value("version", 0) == version;
        },
        timeout);
    return frame.is_object() ? frame["event"] : json(nullptr);
}

// The seat `player_id` holds in a snapshot ("white", "player1", …).
std::string seat_of_player(const json& snapshot, const std::string& player_id) {
    for (const auto& player : snapshot["players"]) {
        if (player["id"] == player_id) {
            return player["seat"];
        }
    }
    return "";
}

// The person plays what it must (the n-th legal move, a name, ODD) until the game ends or
// `max_actions` pass; returns the final snapshot.
json play_against_bot(WsClient& me, const std::string& game_id, int max_actions) {
    json now = fresh_snapshot(me, game_id);
    const auto mine = seat_of_player(now, me.player_id());
    for (int action = 0; action < max_actions && now.is_object() && now["result"].is_null();) {
        bool acted = true;
        const auto& match = now["match"];
        if (match.is_object() && match["phase"] == "naming" && match["namer"] == mine) {
            int object = 1;
            for (const auto& entry : match["objects"]) {
                if (entry["available"] == true) {
                    object = entry["object"];
                    break;
                }
            }
            me.send({{"type", "name_object"}, {"game_id", game_id}, {"object", object}});
        } else if (match.is_object() && match["phase"] == "choosing" && match["chooser"] == mine) {
            me.send({{"type", "choose_side"}, {"game_id", game_id}, {"side", "odd"}});
        } else {
            std::string role = mine;
            if (match.is_object()) {
                role = match["odd"] == mine ? "odd" : "even";
            }
            const bool playing = !match.is_object() || match["phase"] == "playing";
            if (playing && now["to_move"] == role && !now["legal"].empty()) {
                const auto& legal = now["legal"];
                me.send({{"type", "move"},
                         {"game_id", game_id},
                         {"move", legal[static_cast<std::size_t>(action * 7) % legal.size()]}});
            } else {
                acted = false;
            }
        }
        action += acted ? 1 : 0;
        // The next event: mine, or the computer's answer.
        if (bot_test_event(me, game_id, now["version"].get<std::int64_t>() + 1, 60s).is_null()) {
            break;
        }
        now = fresh_snapshot(me, game_id);
    }
    return now;
}

json bot_player(const json& snapshot) {
    for (const auto& player : snapshot["players"]) {
        if (player.value("bot", false)) {
            return player;
        }
    }
    return nullptr;
}

double bot_moves_so_far(std::uint16_t port) {
    return test::metric_value(test::http_get(port, "/metrics").body, "chessence_bot_moves_total");
}

class RoomBots : public ::testing::Test {
protected:
    test::TestServer server_{bot_test_limits()};
    WsClient me_{server_.port()};
    void SetUp() override { me_.hello(); }
    server::BotPool& bots() { return server_.server()->bots(); }
};

// Chessence to its end against the computer, which the snapshot and the lobby show as a bot.
TEST_F(RoomBots, ChessenceGameEndsWithAResult) {
    auto start = start_bot_game(me_, "chessence", 8, {{"side", "white"}});
    ASSERT_TRUE(start.is_object());
    const std::string game_id = start["game_id"];
    const auto bot = bot_player(start);
    ASSERT_TRUE(bot.is_object()) << start.dump();
    EXPECT_EQ(bot["seat"], "black");
    EXPECT_EQ(bot["id"], "computer:8");
    EXPECT_EQ(bot["name"], "Computer level 8");
    EXPECT_EQ(bot["level"], 8);
    EXPECT_EQ(bot["online"], true);
    EXPECT_EQ(start["rated"], false);

    WsClient watcher(server_.port());
    watcher.hello();
    watcher.send({{"type", "lobby_subscribe"}, {"id", "lobby"}});
    const auto lobby = watcher.wait_type("lobby");
    ASSERT_EQ(lobby["games"].size(), 1u);
    EXPECT_EQ(lobby["games"][0]["bot"], json({{"seat", "black"}, {"level", 8}}));
    EXPECT_TRUE(lobby["seeks"].empty());

    const auto end = play_against_bot(me_, game_id, 400);
    ASSERT_FALSE(end["result"].is_null()) << end.dump();
    EXPECT_EQ(me_.schema_violations(), 0u);
    const auto api = test::parse(test::http_get(server_.port(), "/api/games/" + game_id).body);
    ASSERT_TRUE(api.is_object());
    EXPECT_EQ(api["players"][1], json({{"seat", "black"},
                                       {"id", "computer:8"},
                                       {"name", "Computer level 8"},
                                       {"bot", true},
                                       {"level", 8}}));
    EXPECT_FALSE(api["players"][0].contains("bot"));
    const auto record = test::http_get(server_.port(), "/api/games/" + game_id + ".pgn");
    ASSERT_EQ(record.status, 200);
    EXPECT_NE(record.body.find("[Black \"Computer level 8\"]"), std::string::npos) << record.body;
    EXPECT_NE(record.body.find("[BlackType \"program\"]"), std::string::npos) << record.body;
    EXPECT_EQ(record.body.find("WhiteType"), std::string::npos);
}

TEST_F(RoomBots, ChesicaGameEndsWithAResult) {
    auto start = start_bot_game(me_, "chesica", 8, {{"side", "black"}});
    ASSERT_TRUE(start.is_object());
    EXPECT_EQ(bot_player(start)["seat"], "white");  // the computer moves first
    const auto end = play_against_bot(me_, start["game_id"], 400);
    EXPECT_FALSE(end["result"].is_null()) << end.dump();
}

// A Sniderman match of three rounds: the bot names objects or chooses ODD/EVEN, and captures.
TEST_F(RoomBots, SnidermanMatchEndsWithAResult) {
    auto start = start_bot_game(me_, "sniderman", 1, {{"rounds", 3}});
    ASSERT_TRUE(start.is_object());
    ASSERT_TRUE(bot_player(start).is_object());
    const auto end = play_against_bot(me_, start["game_id"], 100);
    ASSERT_FALSE(end["result"].is_null()) << end.dump();
    EXPECT_EQ(end["result"]["reason"], "match_won");
    ASSERT_GE(end["match"]["records"].size(), 2u);
    for (const auto& round : end["match"]["records"]) {
        EXPECT_GE(round["object"].get<int>(), 1);
        EXPECT_FALSE(round["odd"].is_null());
        EXPECT_FALSE(round["winner"].is_null());
    }
}

// The computer accepts a takeback at once, as lichess's does, and declines a draw.
TEST_F(RoomBots, TakebackIsAcceptedAndDrawDeclined) {
    auto start = start_bot_game(me_, "chessence", 1, {{"side", "white"}});
    const std::string game_id = start["game_id"];
    me_.send({{"type", "move"}, {"game_id", game_id}, {"move", start["legal"][0]}});
    ASSERT_EQ(bot_test_event(me_, game_id, 1)["kind"], "move");
    ASSERT_EQ(bot_test_event(me_, game_id, 2)["by"], "black");  // the computer's reply
    me_.send({{"type", "draw_offer"}, {"game_id", game_id}});
    EXPECT_EQ(bot_test_event(me_, game_id, 3)["kind"], "draw_offered");
    EXPECT_EQ(bot_test_event(me_, game_id, 4)["kind"], "draw_declined");
    me_.send({{"type", "takeback_offer"}, {"game_id", game_id}});
    EXPECT_EQ(bot_test_event(me_, game_id, 5)["kind"], "takeback_offered");
    const auto takeback = bot_test_event(me_, game_id, 6);
    EXPECT_EQ(takeback["kind"], "takeback");
    EXPECT_EQ(takeback["plies"], 2);  // my move and the computer's: I am to move again
    const auto now = fresh_snapshot(me_, game_id);
    EXPECT_TRUE(now["moves"].empty());
    EXPECT_EQ(now["to_move"], "white");
}

// An answer thought for a version the game has left is dropped: my move is taken back and I play
// another while the computer's answer to the first still waits; only its answer to the second is
// played.
TEST(RoomBotsStale, StaleAnswerIsDropped) {
    test::LogCapture log({"room"});
    test::TestServer server(bot_test_limits());
    auto& bots = server.server()->bots();
    WsClient me(server.port());
    me.hello();
    auto start = start_bot_game(me, "chessence", 1, {{"side", "white"}});
    const std::string game_id = start["game_id"];
    bots.hold(true);
    me.send({{"type", "move"}, {"game_id", game_id}, {"move", start["legal"][0]}});
    ASSERT_EQ(bot_test_event(me, game_id, 1)["kind"], "move");
    ASSERT_TRUE(test::eventually([&] { return bots.queued() == 1; }));
    me.send({{"type", "takeback_offer"}, {"game_id", game_id}});
    ASSERT_EQ(bot_test_event(me, game_id, 2)["kind"], "takeback_offered");
    ASSERT_EQ(bot_test_event(me, game_id, 3)["plies"], 1);
    const std::string second = start["legal"][1];
    me.send({{"type", "move"}, {"game_id", game_id}, {"move", second}});
    ASSERT_EQ(bot_test_event(me, game_id, 4)["move"], second);
    ASSERT_TRUE(test::eventually([&] { return bots.queued() == 2; }));
    const auto before = bot_moves_so_far(server.port());
    bots.hold(false);  // the answer for version 1 comes first, then the one for version 4
    ASSERT_EQ(bot_test_event(me, game_id, 5)["by"], "black");
    ASSERT_TRUE(
        test::eventually([&] { return bot_moves_so_far(server.port()) >= before + 2; }, 20s));
    const auto now = fresh_snapshot(me, game_id);
    EXPECT_EQ(now["version"], 5);
    ASSERT_EQ(now["moves"].size(), 2u);
    EXPECT_EQ(now["moves"][0], second);
    EXPECT_EQ(now["to_move"], "white");
    me.close();
    server.stop();
    EXPECT_TRUE(log.has_line_with({game_id, "for version 1 is stale", "dropped"})) << log.text();
    EXPECT_FALSE(log.has_line_with({game_id, "was refused"})) << log.text();
}

// The bot accepts a rematch: the same level, colours swapped, and it moves first now.
TEST_F(RoomBots, RematchIsAcceptedWithColoursSwapped) {
    auto start = start_bot_game(me_, "chesica", 2, {{"side", "white"}});
    const std::string game_id = start["game_id"];
    me_.send({{"type", "resign"}, {"game_id", game_id}});
    ASSERT_EQ(bot_test_event(me_, game_id, 1)["kind"], "game_over");
    me_.send({{"type", "rematch_offer"}, {"game_id", game_id}});
    ASSERT_EQ(bot_test_event(me_, game_id, 2)["kind"], "rematch_offered");
    const auto started = bot_test_event(me_, game_id, 3);
    ASSERT_EQ(started["kind"], "rematch_started");
    const std::string next = started["new_game_id"];
    EXPECT_EQ(bot_test_event(me_, next, 1)["by"], "white");  // the computer's first move
    const auto now = fresh_snapshot(me_, next);
    EXPECT_EQ(bot_player(now)["seat"], "white");
    EXPECT_EQ(bot_player(now)["id"], "computer:2");
}

TEST(RoomBotsLimits, BotsBusyPastTheQueueOrWithoutThreads) {
    auto limits = bot_test_limits();
    limits.bot_queue = 1;
    test::TestServer server(limits);
    WsClient me(server.port());
    me.hello();
    server.server()->bots().hold(true);
    // The computer plays white: its first move waits in the queue, which is then full.
    auto first = start_bot_game(me, "chessence", 1, {{"side", "black"}});
    ASSERT_TRUE(first.is_object());
    ASSERT_TRUE(test::eventually([&] { return server.server()->bots().queued() == 1; }));
    EXPECT_EQ(refused_bot_game(me, "chesica", 1, "full"), "bots_busy");
    const auto metrics = test::http_get(server.port(), "/metrics").body;
    EXPECT_EQ(test::metric_value(metrics, "chessence_bot_jobs_queued"), 1);
    server.server()->bots().hold(false);
    EXPECT_EQ(bot_test_event(me, first["game_id"], 1)["by"], "white");

    limits.bot_threads = 0;
    test::TestServer none(limits);
    WsClient other(none.port());
    other.hello();
    EXPECT_EQ(refused_bot_game(other, "sniderman", 4, "none"), "bots_busy");
}

// A game against the computer counts towards the player's unfinished games.
TEST(RoomBotsLimits, UnfinishedGamesLimitApplies) {
    auto limits = bot_test_limits();
    limits.games_per_player = 1;
    test::TestServer server(limits);
    WsClient me(server.port());
    me.hello();
    ASSERT_TRUE(start_bot_game(me, "chesica", 2, {{"side", "white"}}).is_object());
    EXPECT_EQ(refused_bot_game(me, "chesica", 2, "second"), "rate_limited");
}

// The bot's clock runs while it thinks: held long enough, it loses on time.
TEST(RoomBotsClock, BotLosesOnTime) {
    auto time = std::make_shared<test::ManualTime>();
    test::TestServer server(bot_test_limits(), nullptr, time);
    WsClient me(server.port());
    me.hello();
    auto start = start_bot_game(
        me, "chessence", 1, {{"side", "white"}, {"clock", {{"initial", 15}, {"increment", 0}}}});
    const std::string game_id = start["game_id"];
    me.send({{"type", "move"}, {"game_id", game_id}, {"move", start["legal"][0]}});
    ASSERT_EQ(bot_test_event(me, game_id, 1)["by"], "white");
    const auto reply = bot_test_event(me, game_id, 2);
    ASSERT_EQ(reply["by"], "black");
    server.server()->bots().hold(true);
    me.send({{"type", "move"}, {"game_id", game_id}, {"move", reply["legal"][0]}});
    ASSERT_EQ(bot_test_event(me, game_id, 3)["by"], "white");
    time->advance(60s);  // past the computer's 15 s and any lag grace
    const auto over = bot_test_event(me, game_id, 4);
    EXPECT_EQ(over["kind"], "game_over");
    EXPECT_EQ(over["result"], json({{"winner", "white"}, {"reason", "timeout"}}));
    server.server()->bots().hold(false);
}

// The computer is always there for claims, but a game against it counts as left once its person
// left: out of the lobby's list after five minutes, and an unlimited one drawn after 72 hours.
TEST(RoomBotsClock, AGameItsPersonLeftCountsAsLeft) {
    auto time = std::make_shared<test::ManualTime>();
    test::TestServer server(bot_test_limits(), nullptr, time);
    auto me = std::make_unique<WsClient>(server.port());
    me->hello();
    auto start = start_bot_game(*me, "chessence", 1, {{"side", "white"}});
    const std::string game_id = start["game_id"];
    me->send({{"type", "move"}, {"game_id", game_id}, {"move", start["legal"][0]}});
    ASSERT_EQ(bot_test_event(*me, game_id, 2)["by"], "black");
    WsClient sam(server.port());
    sam.hello();
    fresh_snapshot(sam, game_id);
    const auto listed = [&] {
        sam.send({{"type", "draw_decline"}, {"game_id", game_id}, {"id", "barrier"}});
        sam.wait_error("barrier");  // the room's word to the lobby is on the lobby's strand
        WsClient newcomer(server.port());
        newcomer.hello();
        newcomer.send({{"type", "lobby_subscribe"}, {"id", "sub"}});
        newcomer.wait_type("lobby");
        return test::lobby_view(newcomer).has_game(game_id);
    };
    EXPECT_TRUE(listed());
    me->close();
    sam.wait_for([](const json& m) {
        return m.value("type", "") == "presence" && m["online"].value("white", true) == false;
    });
    time->advance(5min);
    EXPECT_FALSE(listed()) << "its person gone for five minutes";
    time->advance(72h);
    const auto over = bot_test_event(sam, game_id, 3);
    EXPECT_EQ(over["result"], json({{"winner", nullptr}, {"reason", "abandoned"}}));
}

// A restart with the computer to move: its job was dropped with the old server; the restored room
// asks the new pool, and the computer moves.
TEST(RoomBotsRestart, BotToMoveMovesAfterARestart) {
    storage_test::TempDir dir;
    auto store = server::open_sqlite_store(dir.file("bots.db"));
    ASSERT_TRUE(store.ok()) << store.error();
    test::TestServer server(bot_test_limits(), std::move(*store));
    std::string token;
    std::string game_id;
    {
        WsClient me(server.port());
        me.hello();
        token = me.token();
        auto start = start_bot_game(me, "chessence", 3, {{"side", "white"}});
        game_id = start["game_id"];
        server.server()->bots().hold(true);
        me.send({{"type", "move"}, {"game_id", game_id}, {"move", start["legal"][0]}});
        ASSERT_EQ(bot_test_event(me, game_id, 1)["by"], "white");
        ASSERT_TRUE(test::eventually([&] { return server.server()->bots().queued() == 1; }));
    }
    server.restart();
    WsClient me(server.port());
    me.hello(token);
    const auto now = fresh_snapshot(me, game_id);
    ASSERT_TRUE(now.is_object());
    if (now["version"] == 1) {
        EXPECT_EQ(bot_test_event(me, game_id, 2)["by"], "black");
    } else {
        EXPECT_EQ(now["moves"].size(), 2u);  // it moved before we looked
    }
}

// Stopping the server while level-8 bots think for minutes returns: every search stops.
TEST(RoomBotsShutdown, ShutdownWithBotsThinkingReturns) {
    auto limits = bot_test_limits(std::chrono::minutes(10));
    limits.bot_threads = 2;
    auto server = std::make_unique<test::TestServer>(limits);
    WsClient me(server->port());
    me.hello();
    for (const auto* variant : {"chessence", "chesica", "chessence"}) {
        ASSERT_TRUE(start_bot_game(me, variant, 8, {{"side", "black"}}).is_object());
    }
    auto& bots = server->server()->bots();
    // Two think, one waits.
    ASSERT_TRUE(test::eventually([&] { return bots.thinking() == 2 && bots.queued() == 1; }));
    auto stopped = std::async(std::launch::async, [&server] { server->stop(); });
    // Not a timing assertion: ten minutes of thinking would be a hang.
    ASSERT_EQ(stopped.wait_for(std::chrono::seconds(60)), std::future_status::ready);
}

// A restored game whose level-8 bot thinks for minutes right after the restart does not hold the
// next shutdown either (an earlier attempt's test of this hung).
TEST(RoomBotsShutdown, RestoredBotThinkingDoesNotHoldTheShutdown) {
    storage_test::TempDir dir;
    auto store = server::open_sqlite_store(dir.file("restored.db"));
    ASSERT_TRUE(store.ok()) << store.error();
    auto server = std::make_unique<test::TestServer>(bot_test_limits(std::chrono::minutes(10)),
                                                     std::move(*store));
    {
        WsClient me(server->port());
        me.hello();
        ASSERT_TRUE(start_bot_game(me, "chesica", 8, {{"side", "black"}}).is_object());
        ASSERT_TRUE(test::eventually([&] { return server->server()->bots().thinking() == 1; }));
    }
    server->restart();  // the bot was thinking; the restored room asks the new pool
    ASSERT_TRUE(test::eventually([&] { return server->server()->bots().thinking() == 1; }));
    auto stopped = std::async(std::launch::async, [&server] { server->stop(); });
    // Not a timing assertion: ten minutes of thinking would be a hang.
    ASSERT_EQ(stopped.wait_for(std::chrono::seconds(60)), std::future_status::ready);
}

}  // namespace
