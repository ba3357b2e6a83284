// A room's clocks on a real server whose time the test moves by hand (tests/server/manual_time.h):
// readings in snapshots and move events, untimed first moves, increments, flags that the server
// ends by itself (and a late move that changes nothing), the first-move abort, a restart, Sniderman
// and correspondence clocks, and the clock in the lobby.
#include "server/game/room.h"

#include <gtest/gtest.h>

#include "server/game/timed_room_test.h"
#include "server/game_table.h"
#include "server/lobby_view.h"
#include "server/manual_time.h"

namespace {

using namespace std::chrono_literals;
using test::clocks;
using test::json;
using test::Table;

class RoomClocks : public ::testing::Test {
protected:
    static server::Limits limits() {
        auto limits = test::fast_limits();
        limits.lag_probe_interval = 0ms;  // no lag credit: the readings are exact
        return limits;
    }

    static json play(Table& table) { return test::play_first_legal(table); }

    std::shared_ptr<test::ManualTime> time_ = std::make_shared<test::ManualTime>();
    test::TestServer server_{limits(), nullptr, time_};
};

TEST_F(RoomClocks, MovesCarryTheClocksAndOnlyTimedMovesPay) {
    Table table(server_.port(), "chessence", 1, false, {{"initial", 60}, {"increment", 2}});
    ASSERT_FALSE(table.game_id.empty());
    EXPECT_EQ(table.start["time_control"], (json{{"initial", 60}, {"increment", 2}}));
    EXPECT_EQ(test::reading(table.start["clock"]), clocks(60000, 60000, nullptr));
    EXPECT_EQ(table.start["abort_in"], 30000);
    time_->advance(5s);
    EXPECT_EQ(test::reading(play(table)["clock"]), clocks(60000, 60000, nullptr))
        << "white's first move: free";
    time_->advance(7s);
    EXPECT_EQ(test::reading(play(table)["clock"]), clocks(60000, 60000, "white"))
        << "black's too; white's runs";
    EXPECT_TRUE(table.snapshot(*table.sam)["abort_in"].is_null());
    time_->advance(10s);
    const auto third = play(table);
    EXPECT_EQ(test::reading(third["clock"]), clocks(52000, 60000, "black"))
        << "10 s taken, 2 s increment";
    EXPECT_FALSE(third.contains("lag_ms"));
    time_->advance(3500ms);
    EXPECT_EQ(test::reading(table.snapshot(*table.sam)["clock"]), clocks(52000, 56500, "black"));
}

TEST_F(RoomClocks, TheServerEndsTheGameWhenAFlagFalls) {
    Table table(server_.port(), "chesica", 1, false, {{"initial", 15}, {"increment", 0}});
    play(table);
    play(table);
    time_->advance(14999ms);
    auto now = table.snapshot(*table.sam);
    EXPECT_TRUE(now["result"].is_null());
    EXPECT_EQ(test::reading(now["clock"]), clocks(1, 15000, "white"));
    time_->advance(1ms + 209ms);  // zero, and 209 of the 210 ms of White's lag grace
    EXPECT_TRUE(table.snapshot(*table.sam)["result"].is_null()) << "inside the grace";
    time_->advance(1ms);
    const auto over = table.event(++table.version);
    EXPECT_EQ(over["kind"], "game_over");
    EXPECT_EQ(over["result"], (json{{"winner", "black"}, {"reason", "timeout"}}));
    EXPECT_EQ(test::reading(over["clock"]), clocks(0, 15000, nullptr));
    const auto after = table.snapshot(*table.sam);
    table.ann->send(
        {{"type", "move"}, {"game_id", table.game_id}, {"move", now["legal"][0]}, {"id", "late"}});
    EXPECT_EQ(table.ann->wait_error("late")["code"], "game_over");
    EXPECT_EQ(table.snapshot(*table.sam), after) << "the late move changed nothing";
    const auto stored = server_.store().game(table.game_id).value();
    EXPECT_EQ(stored->status, "finished");
    EXPECT_EQ(json::parse(stored->result_json)["reason"], "timeout");
}

TEST_F(RoomClocks, AMoveThatArrivesAfterTheFlagBeforeAnyTimerGetsGameOver) {
    Table table(server_.port(), "chesica", 1, false, {{"initial", 20}, {"increment", 0}});
    play(table);
    play(table);
    const auto legal = table.snapshot(*table.sam)["legal"];
    time_->advance(21s, false);  // the room's timer has not looked yet
    table.ann->send({{"type", "move"}, {"game_id", table.game_id}, {"move", legal[0]}, {"id", 1}});
    const auto over = table.event(++table.version);
    EXPECT_EQ(over["result"], (json{{"winner", "black"}, {"reason", "timeout"}}));
    EXPECT_EQ(table.ann->wait_error(1)["code"], "game_over");
    EXPECT_EQ(table.snapshot(*table.sam)["moves"].size(), 2u);
}

TEST_F(RoomClocks, AFirstMoveThatDoesNotComeInThirtySecondsAbortsTheGame) {
    Table table(server_.port(), "chessence", 1, false, {{"initial", 180}, {"increment", 0}});
    time_->advance(29999ms);
    EXPECT_EQ(table.snapshot(*table.sam)["abort_in"], 1);
    time_->advance(1ms);
    auto over = table.event(++table.version);
    EXPECT_EQ(over["result"], (json{{"winner", nullptr}, {"reason", "aborted"}}));

    Table second(server_.port(), "chessence", 1, false, {{"initial", 180}, {"increment", 0}});
    time_->advance(20s);
    play(second);  // white in time; black now has 30 s for its first move
    time_->advance(29s);
    EXPECT_TRUE(second.snapshot(*second.sam)["result"].is_null());
    time_->advance(1s);
    EXPECT_EQ(second.event(++second.version)["result"]["reason"], "aborted");
}

// Issue 22: the time Black used before the stop stays used; only the hour the server was down is
// refunded (the runs that the heartbeat stores say when it was down).
TEST_F(RoomClocks, AfterARestartTimeUsedStaysUsedAndOnlyTheDowntimeIsRefunded) {
    const std::string game_id = [&] {
        Table table(server_.port(), "chesica", 1, false, {{"initial", 60}, {"increment", 0}});
        play(table);
        play(table);
        time_->advance(10s);
        play(table);  // white: 50 s left, black's clock runs
        time_->advance(4s);
        EXPECT_EQ(test::reading(table.snapshot(*table.sam)["clock"]),
                  clocks(50000, 56000, "black"));
        server_.stop();
        return table.game_id;
    }();
    time_->advance(1h);  // the server is down: nobody is charged
    server_.restart();
    test::WsClient sam(server_.port());
    sam.hello();
    sam.send({{"type", "watch"}, {"game_id", game_id}});
    auto snapshot = sam.wait_type("snapshot");
    EXPECT_EQ(test::reading(snapshot["clock"]), clocks(50000, 56000, "black"))
        << "black's 4 s before the stop stay used";
    time_->advance(2500ms);
    sam.send({{"type", "watch"}, {"game_id", game_id}});
    snapshot = sam.wait_type("snapshot");
    EXPECT_EQ(test::reading(snapshot["clock"]), clocks(50000, 53500, "black"));
    time_->advance(53500ms + 390ms);  // zero, then the lag grace (black's quota: 390 ms)
    const auto over = sam.wait_for([](const json& m) {
        return m.value("type", "") == "event" && m["event"].value("kind", "") == "game_over";
    });
    EXPECT_EQ(over["event"]["result"], (json{{"winner", "white"}, {"reason", "timeout"}}));
}

// Issue 22: a restart gives the player to move no new period; only the downtime is refunded.
TEST_F(RoomClocks, CorrespondenceKeepsItsDeadlineAcrossARestart) {
    const std::int64_t day = 86400 * 1000;
    const std::string game_id = [&] {
        Table table(server_.port(), "chessence", 1, false, {{"days", 1}});
        time_->advance(2h);
        play(table);  // black has a day from now
        time_->advance(5h);
        server_.stop();
        return table.game_id;
    }();
    time_->advance(3h);  // down
    server_.restart();
    test::WsClient sam(server_.port());
    sam.hello();
    sam.send({{"type", "watch"}, {"game_id", game_id}});
    const auto snapshot = sam.wait_type("snapshot");
    EXPECT_EQ(test::reading(snapshot["clock"]), clocks(day, day - 5 * 3600 * 1000, "black"));
    time_->advance(19h);
    const auto over = sam.wait_for([](const json& m) {
        return m.value("type", "") == "event" && m["event"].value("kind", "") == "game_over";
    });
    EXPECT_EQ(over["event"]["result"], (json{{"winner", "white"}, {"reason", "timeout"}}));
}

// Issue 22: every reading says when the server took it, in the server's time.
TEST_F(RoomClocks, ReadingsCarryTheServersTime) {
    Table table(server_.port(), "chesica", 1, false, {{"initial", 60}, {"increment", 0}});
    play(table);
    time_->advance(1234ms);
    const auto move = play(table);
    EXPECT_EQ(move["clock"]["at"], server::unix_ms(time_->now()));
}

TEST_F(RoomClocks, SnidermanNamingAndChoosingUseTheClockOfWhoMustAct) {
    Table table(server_.port(), "sniderman", 1, false, {{"initial", 30}, {"increment", 0}});
    const auto seat_clock = [](std::int64_t p0, std::int64_t p1, const json& running) {
        return json{{"player0", p0}, {"player1", p1}, {"running", running}};
    };
    EXPECT_EQ(test::reading(table.start["clock"]), seat_clock(30000, 30000, nullptr));
    const std::string namer = table.start["match"]["namer"];
    const std::string chooser = namer == "player0" ? "player1" : "player0";
    time_->advance(3s);
    table.seat_named(namer).send(
        {{"type", "name_object"}, {"game_id", table.game_id}, {"object", 2}});
    EXPECT_EQ(test::reading(table.event(++table.version)["clock"]),
              seat_clock(30000, 30000, nullptr));
    time_->advance(4s);
    table.seat_named(chooser).send(
        {{"type", "choose_side"}, {"game_id", table.game_id}, {"side", "odd"}});
    const auto chosen = table.event(++table.version);
    EXPECT_EQ(chosen["clock"]["running"], chooser) << "ODD (the chooser) captures first";
    time_->advance(30s + 270ms);  // the time and the lag grace (30+0 gains 270 ms)
    const auto over = table.event(++table.version);
    EXPECT_EQ(over["result"], (json{{"winner", namer}, {"reason", "timeout"}}));
}

TEST_F(RoomClocks, CorrespondenceGivesDaysForEachMoveFromTheStart) {
    Table table(server_.port(), "chesica", 1, false, {{"days", 1}});
    const std::int64_t day = 86400 * 1000;
    EXPECT_EQ(test::reading(table.start["clock"]), clocks(day, day, "white"));
    EXPECT_TRUE(table.start["abort_in"].is_null()) << "no first-move abort in correspondence";
    time_->advance(20h);
    EXPECT_EQ(test::reading(play(table)["clock"]), clocks(day, day, "black"))
        << "the period restarts";
    time_->advance(23h);
    EXPECT_EQ(test::reading(play(table)["clock"]), clocks(day, day, "white"));
    time_->advance(24h);
    EXPECT_EQ(table.event(++table.version)["result"],
              (json{{"winner", "black"}, {"reason", "timeout"}}));
}

TEST_F(RoomClocks, UnlimitedGamesHaveNoClock) {
    Table table(server_.port(), "chesica");
    EXPECT_TRUE(table.start["clock"].is_null());
    EXPECT_TRUE(table.start["time_control"].is_null());
    time_->advance(100h);
    const auto move = play(table);
    EXPECT_FALSE(move.contains("clock"));
    EXPECT_TRUE(table.snapshot(*table.sam)["result"].is_null());
}

TEST_F(RoomClocks, SeeksAndSummariesCarryTheClockAndQuickPairingMatchesIt) {
    test::WsClient ann(server_.port());
    test::WsClient bob(server_.port());
    test::WsClient cat(server_.port());
    ann.hello();
    bob.hello();
    cat.hello();
    const json blitz = {{"initial", 180}, {"increment", 2}};
    ann.send({{"type", "quick_pair"}, {"variant", "chesica"}, {"clock", blitz}, {"id", "a"}});
    EXPECT_EQ(ann.wait_type("seek_created")["seek"]["clock"], blitz);
    bob.send({{"type", "quick_pair"}, {"variant", "chesica"}, {"id", "b"}});
    EXPECT_TRUE(bob.wait_type("seek_created")["seek"]["clock"].is_null())
        << "not paired: unlimited";
    cat.send({{"type", "lobby_subscribe"}, {"id", "l"}});
    cat.wait_type("lobby");
    cat.send({{"type", "quick_pair"}, {"variant", "chesica"}, {"clock", blitz}, {"id", "c"}});
    const auto started = cat.wait_type("game_started");
    const std::string game_id = started["game_id"];
    const auto lobby =
        test::wait_lobby(cat, [&](const test::LobbyView& v) { return v.has_game(game_id); });
    EXPECT_EQ(lobby.game(game_id)["clock"], blitz);
    ASSERT_EQ(lobby.seeks.size(), 1u);
    EXPECT_TRUE(lobby.seeks[0]["clock"].is_null());
    EXPECT_EQ(server_.store().game(started["game_id"].get<std::string>()).value()->time_control,
              "180+2");
}

}  // namespace
