// Takebacks on a real server with a hand-moved clock: offer, decline, accept, one ply or two, the
// clocks put back to what they were, the game after a restart the same, and the wrong uses.
#include "server/game/room.h"

#include <gtest/gtest.h>

#include "server/game/timed_room_test.h"
#include "server/game_table.h"
#include "server/manual_time.h"

namespace {

using namespace std::chrono_literals;
using test::clocks;
using test::json;
using test::Table;

class RoomTakebacks : public test::TimedRoomTest {};

TEST_F(RoomTakebacks, OfferDeclineAcceptAndTheClocksGoBack) {
    Table table(server_.port(), "chesica", 1, false, {{"initial", 60}, {"increment", 2}});
    time_->advance(1s);
    play(table);
    time_->advance(1s);
    const auto after_black = play(table);
    EXPECT_EQ(test::reading(after_black["clock"]), clocks(60000, 60000, "white"));
    const auto position_after_black = table.snapshot(*table.sam);
    time_->advance(3s);
    EXPECT_EQ(test::reading(play(table)["clock"]), clocks(59000, 60000, "black"));
    const auto position_after_white = table.snapshot(*table.sam);
    time_->advance(4s);
    EXPECT_EQ(test::reading(play(table)["clock"]), clocks(59000, 58000, "white"));

    EXPECT_EQ(refused(table, *table.ann, "takeback_accept"), "no_takeback_offer");
    send(table, *table.bob, "takeback_offer");  // Black's last move: one ply
    EXPECT_EQ(table.event(++table.version), (json{{"kind", "takeback_offered"}, {"by", "black"}}));
    EXPECT_EQ(table.snapshot(*table.sam)["takeback_offer"], "black");
    send(table, *table.ann, "takeback_decline");
    EXPECT_EQ(table.event(++table.version), (json{{"kind", "takeback_declined"}, {"by", "white"}}));
    time_->advance(2s);
    send(table, *table.bob, "takeback_offer");
    table.event(++table.version);
    send(table, *table.ann, "takeback_accept");
    const auto back = table.event(++table.version);
    EXPECT_EQ(back["kind"], "takeback");
    EXPECT_EQ(back["by"], "black");
    EXPECT_EQ(back["plies"], 1);
    EXPECT_EQ(test::reading(back["clock"]), clocks(59000, 60000, "black"))
        << "as after White's second move";
    EXPECT_EQ(back["fen"], position_after_white["fen"]);
    EXPECT_EQ(back["to_move"], "black");
    auto now = table.snapshot(*table.sam);
    EXPECT_EQ(now["moves"], position_after_white["moves"]);
    EXPECT_EQ(now["legal"], position_after_white["legal"]);
    EXPECT_TRUE(now["takeback_offer"].is_null());

    // White, not to move, takes back its own last move.
    send(table, *table.ann, "takeback_offer");
    table.event(++table.version);
    send(table, *table.bob, "takeback_accept");
    EXPECT_EQ(test::reading(table.event(++table.version)["clock"]), clocks(60000, 60000, "white"));
    now = table.snapshot(*table.sam);
    EXPECT_EQ(now["moves"], position_after_black["moves"]);
    EXPECT_EQ(now["positions"], position_after_black["positions"]);

    // After a restart the game and its clocks are what the takebacks left.
    server_.restart();
    test::WsClient ann(server_.port());
    ann.hello(table.ann_token);
    test::WsClient bob(server_.port());
    bob.hello(table.bob_token);
    ann.send({{"type", "watch"}, {"game_id", table.game_id}});
    auto restored = ann.wait_type("snapshot");
    EXPECT_EQ(restored["moves"], position_after_black["moves"]);
    EXPECT_EQ(test::reading(restored["clock"]), clocks(60000, 60000, "white"));

    // White is to move: its takeback undoes Black's move and its own; the game is back at the start
    // and may be aborted again.
    bob.send({{"type", "watch"}, {"game_id", table.game_id}});
    bob.wait_type("snapshot");
    ann.send({{"type", "takeback_offer"}, {"game_id", table.game_id}});
    // Bob accepts once he has seen the offer (his connection could otherwise overtake Ann's).
    bob.wait_for([](const json& m) {
        return m.value("type", "") == "event" && m["event"].value("kind", "") == "takeback_offered";
    });
    bob.send({{"type", "takeback_accept"}, {"game_id", table.game_id}});
    const auto to_start = bob.wait_for([](const json& m) {
        return m.value("type", "") == "event" && m["event"].value("kind", "") == "takeback";
    });
    EXPECT_EQ(to_start["event"]["plies"], 2);
    EXPECT_EQ(test::reading(to_start["event"]["clock"]), clocks(60000, 60000, nullptr));
    ann.send({{"type", "watch"}, {"game_id", table.game_id}, {"id", "s"}});
    restored = ann.wait_for([](const json& m) { return m.contains("id") && m["id"] == "s"; });
    EXPECT_TRUE(restored["moves"].empty());
    EXPECT_EQ(restored["abort_in"], 30000);
}

TEST_F(RoomTakebacks, WrongUsesAreRefusedAndChangeNothing) {
    Table table(server_.port(), "chessence");
    const auto start = table.snapshot(*table.sam);
    EXPECT_EQ(refused(table, *table.ann, "takeback_offer"), "wrong_phase") << "nothing to undo";
    EXPECT_EQ(refused(table, *table.bob, "takeback_decline"), "no_takeback_offer");
    EXPECT_EQ(refused(table, *table.sam, "takeback_offer"), "not_a_player");
    play(table);
    EXPECT_EQ(refused(table, *table.bob, "takeback_offer"), "wrong_phase") << "Black has not moved";
    const auto moved = table.snapshot(*table.sam);
    send(table, *table.ann, "takeback_offer");
    table.event(++table.version);
    send(table, *table.ann, "takeback_offer");  // repeating one's own offer does nothing
    // A watch on the same connection is handled after the repeated offer: the offer still stands.
    EXPECT_FALSE(table.snapshot(*table.ann)["takeback_offer"].is_null());
    play(table);  // Black moves instead: the offer lapses
    EXPECT_TRUE(table.snapshot(*table.sam)["takeback_offer"].is_null());
    EXPECT_EQ(refused(table, *table.bob, "takeback_accept"), "no_takeback_offer");
    send(table, *table.ann, "resign");
    table.event(++table.version);
    EXPECT_EQ(refused(table, *table.ann, "takeback_offer"), "game_over");
    EXPECT_NE(moved, start);

    Table match(server_.port(), "sniderman");
    EXPECT_EQ(refused(match, *match.ann, "takeback_offer"), "not_supported");
}

}  // namespace
