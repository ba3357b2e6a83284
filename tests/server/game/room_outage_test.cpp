// Issue 42, finding 17: the time a game could not move because its store failed is refunded to
// the player to move like downtime — from the first batch that failed until the store works again
// — and a rebuild from the store afterwards refunds exactly the same (the refund is not charged
// again, nor given twice). A first move's window moves on by the outage too.
#include "server/game/room.h"

#include <gtest/gtest.h>

#include "server/game/timed_room_test.h"
#include "server/game_table.h"
#include "server/manual_time.h"
#include "server/test_stores.h"

namespace {

using namespace std::chrono_literals;
using test::clocks;
using test::json;
using test::Table;

class RoomOutage : public ::testing::Test {
protected:
    RoomOutage() {
        auto limits = test::fast_limits();
        limits.lag_probe_interval = 0ms;  // no lag credit: the readings are exact
        auto inner = std::make_unique<test::ControlledStore>();
        writes_ = inner.get();
        auto store = std::make_unique<test::ReadFailingStore>(std::move(inner));
        reads_ = store.get();
        server_ = std::make_unique<test::TestServer>(limits, std::move(store), time_);
    }

    static json play(Table& table) { return test::play_first_legal(table); }

    // The side to move sends its first legal move; the error code it gets.
    static std::string refused_move(Table& table, const std::string& id) {
        const auto now = table.snapshot(*table.sam);
        auto& mover = table.seat_named(now["to_move"].get<std::string>());
        mover.send(
            {{"type", "move"}, {"game_id", table.game_id}, {"move", now["legal"][0]}, {"id", id}});
        return mover.wait_error(id).value("code", "");
    }

    std::shared_ptr<test::ManualTime> time_ = std::make_shared<test::ManualTime>();
    test::ControlledStore* writes_ = nullptr;
    test::ReadFailingStore* reads_ = nullptr;
    std::unique_ptr<test::TestServer> server_;
};

TEST_F(RoomOutage, TheTimeTheStoreRefusedEveryBatchIsRefundedToTheMover) {
    Table table(server_->port(), "chessence", 1, false, {{"initial", 60}, {"increment", 0}});
    play(table);
    play(table);
    time_->advance(5s);  // white's clock runs: 55 s left

    writes_->fail_all = true;  // a full disk: every batch refused, the heartbeat's too
    EXPECT_EQ(refused_move(table, "m1"), "internal_error");
    time_->advance(6s);
    EXPECT_EQ(refused_move(table, "m2"), "internal_error");
    time_->advance(4s);
    writes_->fail_all = false;

    EXPECT_EQ(test::reading(play(table)["clock"]), clocks(55000, 60000, "black"))
        << "the 10 s from the first refused move until the store took one are White's again";
    time_->advance(3s);
    EXPECT_EQ(test::reading(table.snapshot(*table.sam)["clock"]), clocks(55000, 57000, "black"))
        << "and time runs again as before";
}

TEST_F(RoomOutage, ARoomRebuiltAfterTheOutageRefundsItOnceAndKeepsItThroughALaterRebuild) {
    Table table(server_->port(), "chessence", 1, false, {{"initial", 60}, {"increment", 0}});
    play(table);
    play(table);
    time_->advance(5s);

    writes_->fail_all = true;  // nothing is written, nothing read: the room cannot rebuild
    reads_->fail_reads = true;
    EXPECT_EQ(refused_move(table, "m1"), "internal_error");
    time_->advance(8s);
    writes_->fail_all = false;
    reads_->fail_reads = false;

    // The snapshot's watch finds the room broken: it rebuilds first, refunding the 8 s.
    EXPECT_EQ(test::reading(table.snapshot(*table.sam)["clock"]), clocks(55000, 60000, "white"));
    time_->advance(2s);
    reads_->throw_commits = 1;  // this chat's commit throws: the room rebuilds itself again
    table.ann->send({{"type", "chat"}, {"game_id", table.game_id}, {"text", "hi"}, {"id", "c1"}});
    EXPECT_EQ(table.ann->wait_error("c1")["code"], "internal_error");
    EXPECT_EQ(test::reading(table.snapshot(*table.sam)["clock"]), clocks(53000, 60000, "white"))
        << "the second rebuild neither charges the outage again nor refunds it twice";
    EXPECT_EQ(test::reading(play(table)["clock"]), clocks(53000, 60000, "black"));
}

TEST_F(RoomOutage, AFirstMoveWindowMovesOnByTheOutage) {
    Table table(server_->port(), "chessence", 1, false, {{"initial", 180}, {"increment", 0}});
    time_->advance(10s);
    writes_->fail_all = true;
    EXPECT_EQ(refused_move(table, "m1"), "internal_error");
    time_->advance(25s);  // 35 s since the start: past the window, but 25 s of it an outage
    writes_->fail_all = false;
    const auto snapshot = table.snapshot(*table.sam);
    EXPECT_TRUE(snapshot["result"].is_null()) << snapshot.dump();
    EXPECT_EQ(snapshot["abort_in"], 20000);
    EXPECT_EQ(play(table)["kind"], "move") << "White's first move still comes in time";
}

}  // namespace
