// Issue 22: a room that rebuilds itself (after a handler threw) comes back exactly as it was, its
// running clock included: a rebuild is no restart and refunds nothing.
#include "server/game/room.h"

#include <gtest/gtest.h>

#include "server/game_table.h"
#include "server/manual_time.h"
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

    static json play(Table& table) {
        const auto now = table.snapshot(*table.sam);
        auto& mover = table.seat_named(now["to_move"].get<std::string>());
        mover.send({{"type", "move"}, {"game_id", table.game_id}, {"move", now["legal"][0]}});
        return table.event(++table.version);
    }

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

}  // namespace
