// The requests around time, on a real server with a hand-moved clock: abort (until both players
// have moved), claims against a player who left (after the grace period, with the countdown in
// presence pushes), more time, the measured lag credited to a move, and every wrong use answered
// with its code and no change.
#include "server/game/room.h"

#include <gtest/gtest.h>

#include <thread>

#include "server/game/timed_room_test.h"
#include "server/game_table.h"
#include "server/manual_time.h"

namespace {

using namespace std::chrono_literals;
using test::json;
using test::Table;

const json one_minute = {{"initial", 60}, {"increment", 0}};

class RoomClockRequests : public test::TimedRoomTest {};

TEST_F(RoomClockRequests, EitherPlayerMayAbortUntilBothHaveMoved) {
    Table before_any(server_.port(), "chesica");
    before_any.bob->send({{"type", "abort"}, {"game_id", before_any.game_id}});
    auto over = before_any.event(++before_any.version);
    EXPECT_EQ(over["result"], (json{{"winner", nullptr}, {"reason", "aborted"}}));
    EXPECT_EQ(refused(before_any, *before_any.ann, "abort"), "game_over");

    Table after_one(server_.port(), "chessence", 1, false, one_minute);
    play(after_one);
    after_one.ann->send({{"type", "abort"}, {"game_id", after_one.game_id}});
    EXPECT_EQ(after_one.event(++after_one.version)["result"]["reason"], "aborted");
    EXPECT_EQ(server_.store().game(after_one.game_id).value()->status, "finished");

    Table started(server_.port(), "chessence", 1, false, one_minute);
    play(started);
    play(started);
    const auto snapshot = started.snapshot(*started.sam);
    EXPECT_EQ(refused(started, *started.ann, "abort"), "wrong_phase");
    EXPECT_EQ(refused(started, *started.sam, "abort"), "not_a_player");
    EXPECT_EQ(started.snapshot(*started.sam), snapshot);
}

TEST_F(RoomClockRequests, AGonePlayerCanBeClaimedAgainstOnceTheGracePeriodIsOver) {
    Table table(server_.port(), "chesica", 1, false, one_minute);  // grace: 30 s
    play(table);
    play(table);
    EXPECT_EQ(refused(table, *table.ann, "claim_victory"), "claim_too_early") << "Bob is here";
    table.bob->close();
    const auto gone = table.ann->wait_for([](const json& m) {
        return m.value("type", "") == "presence" && m["online"].value("black", true) == false;
    });
    EXPECT_EQ(gone["claim_in"], (json{{"black", 30000}}));
    time_->advance(20s);
    table.ann->send({{"type", "claim_victory"}, {"game_id", table.game_id}, {"id", "early"}});
    const auto early = table.ann->wait_error("early");
    EXPECT_EQ(early["code"], "claim_too_early");
    EXPECT_EQ(early["message"], "you can claim in 10 s");
    EXPECT_EQ(table.snapshot(*table.sam)["players"][1]["claim_in"], 10000);
    EXPECT_EQ(refused(table, *table.sam, "claim_victory"), "not_a_player");
    time_->advance(10s);
    table.ann->send({{"type", "claim_victory"}, {"game_id", table.game_id}});
    const auto over = table.event(++table.version);
    EXPECT_EQ(over["result"], (json{{"winner", "white"}, {"reason", "abandoned"}}));
    EXPECT_EQ(test::reading(over["clock"]),
              (json{{"white", 30000}, {"black", 60000}, {"running", nullptr}}))
        << "white's clock ran while Bob was gone";
}

TEST_F(RoomClockRequests, AClaimedDrawHasNoWinnerAndUnlimitedGamesMayBeClaimedToo) {
    Table table(server_.port(), "chessence");  // unlimited: the longest grace, 120 s
    play(table);
    play(table);
    table.bob->close();
    table.ann->wait_for([](const json& m) {
        return m.value("type", "") == "presence" && m["claim_in"].value("black", 0) == 120000;
    });
    time_->advance(120s);
    table.ann->send({{"type", "claim_draw"}, {"game_id", table.game_id}});
    const auto over = table.event(++table.version);
    EXPECT_EQ(over["result"], (json{{"winner", nullptr}, {"reason", "abandoned"}}));
    EXPECT_FALSE(over.contains("clock"));
}

TEST_F(RoomClockRequests, CorrespondenceHasNoClaimsAndNoMoreTime) {
    Table table(server_.port(), "chesica", 1, false, {{"days", 3}});
    play(table);
    play(table);
    table.bob->close();
    time_->advance(48h);
    EXPECT_EQ(refused(table, *table.ann, "claim_victory"), "not_supported");
    EXPECT_EQ(refused(table, *table.ann, "moretime"), "not_supported");
}

TEST_F(RoomClockRequests, MoreTimeGivesTheOpponentFifteenSeconds) {
    Table table(server_.port(), "chessence", 1, false, one_minute);
    play(table);
    play(table);
    time_->advance(10s);
    table.bob->send({{"type", "moretime"}, {"game_id", table.game_id}});
    const auto more = table.event(++table.version);
    EXPECT_EQ(more["kind"], "moretime");
    EXPECT_EQ(more["by"], "black");
    EXPECT_EQ(more["ms"], 15000);
    EXPECT_EQ(test::reading(more["clock"]),
              (json{{"white", 65000}, {"black", 60000}, {"running", "white"}}));
    time_->advance(1s);
    EXPECT_EQ(table.snapshot(*table.sam)["clock"]["white"], 64000);
    Table unlimited(server_.port(), "chessence");
    EXPECT_EQ(refused(unlimited, *unlimited.ann, "moretime"), "not_supported");
    EXPECT_EQ(refused(unlimited, *unlimited.sam, "moretime"), "not_a_player");
}

TEST(RoomLag, TheMeasuredRoundTripIsCreditedToTheMoverAndShown) {
    auto limits = test::fast_limits();
    limits.lag_probe_interval = 20ms;
    auto time = std::make_shared<test::ManualTime>();
    test::TestServer server(limits, nullptr, time);
    Table table(server.port(), "chessence", 1, false, one_minute);
    for (int ply = 0; ply < 2; ++ply) {
        const auto now = table.snapshot(*table.sam);
        table.seat_named(now["to_move"].get<std::string>())
            .send({{"type", "move"}, {"game_id", table.game_id}, {"move", now["legal"][0]}});
        table.event(++table.version);
    }
    // White's round trip is measured every 20 ms; once known the snapshot shows it (a presence
    // push carries it too, but only when it changes by 20 ms, which a local link may never do).
    json white_lag;
    for (int attempt = 0; attempt < 200 && !white_lag.is_number(); ++attempt) {
        white_lag = table.snapshot(
            *table.ann)["players"][0]["lag_ms"];  // Ann reads: her client answers the pings
        if (!white_lag.is_number()) {
            std::this_thread::sleep_for(10ms);
        }
    }
    ASSERT_TRUE(white_lag.is_number()) << "White's lag is never shown";
    EXPECT_GE(white_lag.get<int>(), 1);
    time->advance(5s);
    const auto now = table.snapshot(*table.sam);
    table.ann->send({{"type", "move"}, {"game_id", table.game_id}, {"move", now["legal"][0]}});
    const auto move = table.event(++table.version);
    const int lag = move.value("lag_ms", 0);
    EXPECT_GE(lag, 1) << move.dump();
    EXPECT_LE(lag, 390) << "at most the quota gained by one move of a 1+0 game";
    EXPECT_EQ(move["clock"]["white"], 60000 - 5000 + lag);
}

}  // namespace
