// The path of every change: what a room commits together, and what it does when the store fails or
// a handler throws (the room goes back to what is stored, the requester gets internal_error, other
// rooms and clients go on).
#include <gtest/gtest.h>

#include "server/game_table.h"
#include "server/test_stores.h"

namespace {

using test::json;

template <class Op>
const Op* find_op(const server::WriteBatch& batch) {
    for (const auto& op : batch) {
        if (const auto* found = std::get_if<Op>(&op)) {
            return found;
        }
    }
    return nullptr;
}

class RoomCommit : public ::testing::Test {
protected:
    RoomCommit() {
        auto store = std::make_unique<test::ControlledStore>();
        store_ = store.get();
        server_ = std::make_unique<test::TestServer>(test::fast_limits(), std::move(store));
    }
    test::ControlledStore* store_;
    std::unique_ptr<test::TestServer> server_;
};

TEST_F(RoomCommit, GameEndIsOneBatchWithTheFinishedMark) {
    test::Table table(server_->port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    table.bob->send({{"type", "resign"}, {"game_id", table.game_id}});
    EXPECT_EQ(table.event(1)["kind"], "game_over");
    const auto batch = store_->last_batch_of(table.game_id);
    const auto* append = find_op<server::AppendEvents>(batch);
    const auto* finish = find_op<server::FinishGame>(batch);
    ASSERT_NE(append, nullptr);
    ASSERT_NE(finish, nullptr) << "game_over and the finished mark commit together";
    EXPECT_EQ(finish->game_id, table.game_id);
    EXPECT_EQ(json::parse(finish->result_json),
              json::parse(R"({"winner":"white","reason":"resignation"})"));
    EXPECT_EQ(server_->store().game(table.game_id).value()->status, "finished");
}

TEST_F(RoomCommit, SnidermanRoundEndIsOneBatch) {
    test::Table table(server_->port(), "sniderman", 3);
    ASSERT_FALSE(table.game_id.empty());
    test::Played played;
    const auto namer = table.start["match"]["namer"].get<std::string>();
    const auto after = test::play_round(table, namer, 1, played);
    EXPECT_EQ(after["kind"], "round_started");
    const auto batch = store_->last_batch_of(table.game_id);
    const auto* append = find_op<server::AppendEvents>(batch);
    ASSERT_NE(append, nullptr);
    ASSERT_EQ(append->events.size(), 3u) << "the last capture, round_over and the next deal";
    EXPECT_EQ(json::parse(append->events[0])["kind"], "move");
    EXPECT_EQ(json::parse(append->events[1])["kind"], "round_over");
    EXPECT_EQ(json::parse(append->events[2])["kind"], "round_started");
}

TEST_F(RoomCommit, NewGameAndItsFirstEventAreOneBatch) {
    test::Table table(server_->port(), "sniderman", 1);
    ASSERT_FALSE(table.game_id.empty());
    const auto batch = store_->last_batch_of(table.game_id);
    const auto* create = find_op<server::CreateGame>(batch);
    const auto* append = find_op<server::AppendEvents>(batch);
    ASSERT_NE(create, nullptr) << "the game record commits with its first event";
    EXPECT_EQ(create->game.id, table.game_id);
    ASSERT_NE(append, nullptr);
    EXPECT_EQ(append->first_version, 1);
    EXPECT_EQ(json::parse(append->events.at(0))["kind"], "round_started");
}

TEST_F(RoomCommit, StoredMovesAreMinimalAndBroadcastsCarryThePosition) {
    test::Table table(server_->port(), "chessence");
    ASSERT_FALSE(table.game_id.empty());
    const auto move = table.start["legal"][0].get<std::string>();
    table.ann->send({{"type", "move"}, {"game_id", table.game_id}, {"move", move}});
    const auto sent = table.event(1);
    EXPECT_TRUE(sent.contains("board") && sent.contains("legal") && sent.contains("fen"));
    const auto stored = server_->store().events(table.game_id, 0).value();
    ASSERT_EQ(stored.size(), 1u);
    EXPECT_EQ(json::parse(stored[0].json),
              (json{{"kind", "move"}, {"move", move}, {"by", "white"}, {"ply", 1}}));
}

TEST_F(RoomCommit, FailedGameEndLeavesTheGameRunning) {
    test::Table table(server_->port(), "chessence");
    ASSERT_FALSE(table.game_id.empty());
    const auto before = table.snapshot(*table.sam);
    store_->fail_appends = true;
    table.bob->send({{"type", "resign"}, {"game_id", table.game_id}, {"id", "r"}});
    EXPECT_EQ(table.bob->wait_error("r")["code"], "internal_error");
    store_->fail_appends = false;
    EXPECT_EQ(table.snapshot(*table.sam), before);
    EXPECT_EQ(server_->store().game(table.game_id).value()->status, "active");
    table.bob->send({{"type", "resign"}, {"game_id", table.game_id}});
    EXPECT_EQ(table.event(1)["kind"], "game_over");
}

TEST_F(RoomCommit, AThrowingStoreIsContainedAndTheRoomGoesOn) {
    test::Table table(server_->port(), "chesica");
    ASSERT_FALSE(table.game_id.empty());
    const auto before = table.snapshot(*table.sam);
    store_->throw_appends = true;
    table.ann->send(
        {{"type", "move"}, {"game_id", table.game_id}, {"move", before["legal"][0]}, {"id", "m"}});
    EXPECT_EQ(table.ann->wait_error("m")["code"], "internal_error");
    store_->throw_appends = false;
    EXPECT_EQ(table.snapshot(*table.sam), before) << "nothing of the failed move remains";
    table.ann->send({{"type", "move"}, {"game_id", table.game_id}, {"move", before["legal"][0]}});
    EXPECT_EQ(table.event(1)["move"], before["legal"][0]);
}

TEST_F(RoomCommit, RequestsDuringACommitWaitTheirTurn) {
    test::Table table(server_->port(), "chessence");
    ASSERT_FALSE(table.game_id.empty());
    // Three requests back to back: each is handled after the one before it is stored (the third
    // changes something only once the second is applied).
    table.ann->send({{"type", "draw_offer"}, {"game_id", table.game_id}});
    table.ann->send({{"type", "spectator_chat"}, {"game_id", table.game_id}, {"open", false}});
    table.ann->send({{"type", "spectator_chat"}, {"game_id", table.game_id}, {"open", true}});
    EXPECT_EQ(table.event(1)["kind"], "draw_offered");
    EXPECT_EQ(table.event(2)["open"], false);
    EXPECT_EQ(table.event(3)["open"], true);
}

}  // namespace
