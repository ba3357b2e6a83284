// Issue 22: a room that rebuilds itself (after a handler threw) comes back from the store exactly
// as it was, its running clock included: a rebuild is no restart and refunds nothing. A room whose
// events cannot be read answers internal_error and tries again with the next request.
#include "server/game/room.h"

#include <gtest/gtest.h>

#include "server/game/timed_room_test.h"
#include "server/game_table.h"
#include "server/manual_time.h"
#include "server/test_stores.h"
#include "server/throwing_store.h"

namespace {

using namespace std::chrono_literals;
using test::json;
using test::Table;

class RoomRebuild : public ::testing::Test {
protected:
    RoomRebuild() {
        auto limits = test::fast_limits();
        limits.lag_probe_interval = 0ms;
        auto store = std::make_unique<test::ThrowingStore>();
        store_ = store.get();
        server_ = std::make_unique<test::TestServer>(limits, std::move(store), time_);
    }

    static json play(Table& table) { return test::play_first_legal(table); }

    std::shared_ptr<test::ManualTime> time_ = std::make_shared<test::ManualTime>();
    test::ThrowingStore* store_ = nullptr;
    std::unique_ptr<test::TestServer> server_;
};

TEST_F(RoomRebuild, ARebuildChangesNoClock) {
    Table table(server_->port(), "chessence", 1, false, {{"initial", 60}, {"increment", 0}});
    play(table);
    play(table);
    time_->advance(7s);  // white's clock runs: 53 s left
    const auto before = table.snapshot(*table.sam);
    ASSERT_EQ(before["clock"]["white"], 53000);

    store_->fail_commits = 1;  // the next commit throws: the room rebuilds itself
    table.ann->send({{"type", "chat"}, {"game_id", table.game_id}, {"text", "hi"}, {"id", "c1"}});
    EXPECT_EQ(table.ann->wait_error("c1")["code"], "internal_error");

    const auto after = table.snapshot(*table.sam);
    EXPECT_EQ(test::reading(after["clock"]), test::reading(before["clock"]))
        << "the 7 s White used stay used";
    EXPECT_EQ(after["version"], before["version"]);
    time_->advance(3s);
    EXPECT_EQ(table.snapshot(*table.sam)["clock"]["white"], 50000) << "and the clock still runs";
    EXPECT_EQ(play(table)["by"], "white") << "the game goes on";
}

TEST(RoomRebuildFromStore, ARoomThatCannotReadItsEventsAnswersInternalErrorUntilItCan) {
    auto store = std::make_unique<test::ReadFailingStore>();
    auto* failing = store.get();
    test::TestServer server(test::fast_limits(), std::move(store));
    Table table(server.port(), "chesica");
    const auto first = table.snapshot(*table.sam)["legal"][0];

    failing->fail_reads = true;
    failing->throw_commits = 1;  // this chat's commit throws; the rebuild cannot read the events
    table.ann->send({{"type", "chat"}, {"game_id", table.game_id}, {"text", "hi"}, {"id", "c1"}});
    EXPECT_EQ(table.ann->wait_error("c1")["code"], "internal_error");
    table.ann->send({{"type", "move"}, {"game_id", table.game_id}, {"move", first}, {"id", "m1"}});
    EXPECT_EQ(table.ann->wait_error("m1")["code"], "internal_error") << "still cannot load";

    failing->fail_reads = false;
    table.ann->send({{"type", "move"}, {"game_id", table.game_id}, {"move", first}, {"id", "m2"}});
    const auto moved = table.event(++table.version);
    EXPECT_EQ(moved["kind"], "move");
    EXPECT_EQ(moved["ply"], 1) << "rebuilt from the store: no move was lost or doubled";
}

}  // namespace
