// A batch the store reported failed that did land (a COMMIT whose answer was lost, issue 42
// finding 3): the room reads back what it wrote and carries on as if told "durable"; when it
// cannot read it back, it rebuilds from the store before its next request and tells its watchers
// the game as it is. It used to keep its old state, so every later request failed the version
// check and the game was wedged for good.
#include <gtest/gtest.h>

#include "server/game_table.h"
#include "server/test_stores.h"

namespace {

using test::json;

class RoomLanded : public ::testing::Test {
protected:
    RoomLanded() {
        auto store = std::make_unique<test::ReadFailingStore>();
        reads_ = store.get();
        server_ = std::make_unique<test::TestServer>(test::fast_limits(), std::move(store));
    }
    test::ReadFailingStore* reads_;
    std::unique_ptr<test::TestServer> server_;
};

TEST_F(RoomLanded, ABatchThatLandedThoughReportedFailedIsAcknowledgedAndTheGameGoesOn) {
    test::Table table(server_->port(), "chessence");
    ASSERT_FALSE(table.game_id.empty());
    const auto before = table.snapshot(*table.sam);
    reads_->land_then_fail = 1;
    table.ann->send(
        {{"type", "move"}, {"game_id", table.game_id}, {"move", before["legal"][0]}, {"id", "m"}});
    const auto answer =
        table.ann->wait_for([](const json& m) { return m.value("id", json()) == "m"; });
    EXPECT_EQ(answer["type"], "ack") << answer.dump();
    EXPECT_EQ(table.event(1)["move"], before["legal"][0]) << "everyone hears of the stored move";
    EXPECT_EQ(reads_->land_then_fail, 0);

    // The game is not wedged: the opponent's move and the resignation go through.
    const auto after = table.snapshot(*table.bob);
    ASSERT_EQ(after["version"], 1);
    table.bob->send(
        {{"type", "move"}, {"game_id", table.game_id}, {"move", after["legal"][0]}, {"id", "b"}});
    EXPECT_EQ(table.event(2)["move"], after["legal"][0]);
    table.ann->send({{"type", "resign"}, {"game_id", table.game_id}});
    EXPECT_EQ(table.event(3)["kind"], "game_over");
    const auto stored = server_->store().events(table.game_id).value();
    EXPECT_EQ(stored.size(), before["version"].get<std::size_t>() + 3) << "each event once";
}

TEST_F(RoomLanded, WhenTheStoreCannotTellTheRoomRebuildsBeforeItsNextRequest) {
    test::Table table(server_->port(), "chessence");
    ASSERT_FALSE(table.game_id.empty());
    const auto before = table.snapshot(*table.sam);
    reads_->land_then_fail = 1;
    reads_->fail_only = "events";
    reads_->fail_reads = true;
    table.ann->send(
        {{"type", "move"}, {"game_id", table.game_id}, {"move", before["legal"][0]}, {"id", "m"}});
    EXPECT_EQ(table.ann->wait_error("m")["code"], "internal_error");
    reads_->fail_reads = false;

    // The next request finds the room rebuilt: the watchers get the game with the stored move,
    // and the request is carried out on top of it.
    table.bob->send({{"type", "draw_offer"}, {"game_id", table.game_id}, {"id", "d"}});
    const auto resync = table.sam->wait_for([](const json& m) {
        return m.value("type", "") == "snapshot" && m.value("id", json()).is_null();
    });
    EXPECT_EQ(resync["version"], 1) << resync.dump();
    ASSERT_TRUE(resync["moves"].is_array()) << resync.dump();
    EXPECT_EQ(resync["moves"].back(), before["legal"][0]);
    const auto offered =
        table.sam->wait_for([](const json& m) { return m.value("type", "") == "event"; });
    EXPECT_EQ(offered["version"], 2);
    EXPECT_EQ(offered["event"]["kind"], "draw_offered");
    EXPECT_EQ(
        table.bob->wait_for([](const json& m) { return m.value("id", json()) == "d"; })["type"],
        "ack");
}

}  // namespace
