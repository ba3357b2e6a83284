// Issue 42: the requests that wait in a room while its batch is being stored are bounded, per
// client and in all; beyond, `rate_limited` with the request's id and game, and nothing else
// changes (the requests that did wait are handled in order once the batch is durable).
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

#include "server/game_table.h"
#include "server/limits.h"
#include "server/store/memory_store.h"

namespace {

using test::json;

// A memory store that holds the batches appending events while `hold` is set (a stalled disk),
// until release().
class EventHoldingStore final : public server::MemoryStore {
public:
    void commit_batch(server::WriteBatch batch, server::CommitHandler done) override {
        const bool appends = std::any_of(batch.begin(), batch.end(), [](const auto& op) {
            return std::holds_alternative<server::AppendEvents>(op);
        });
        if (appends && hold.load()) {
            std::lock_guard lock(mutex_);
            held_.emplace_back(std::move(batch), std::move(done));
            return;
        }
        MemoryStore::commit_batch(std::move(batch), std::move(done));
    }
    std::size_t held() {
        std::lock_guard lock(mutex_);
        return held_.size();
    }
    // Stops holding, and commits what was held.
    void release() {
        hold = false;
        std::vector<std::pair<server::WriteBatch, server::CommitHandler>> held;
        {
            std::lock_guard lock(mutex_);
            held.swap(held_);
        }
        for (auto& [batch, done] : held) {
            MemoryStore::commit_batch(std::move(batch), std::move(done));
        }
    }

    std::atomic<bool> hold{false};

private:
    std::mutex mutex_;
    std::vector<std::pair<server::WriteBatch, server::CommitHandler>> held_;
};

class RoomWaiting : public ::testing::Test {
protected:
    RoomWaiting() {
        auto store = std::make_unique<EventHoldingStore>();
        store_ = store.get();
        server_ = std::make_unique<test::TestServer>(test::fast_limits(), std::move(store));
        table_ = std::make_unique<test::Table>(server_->port(), "chessence");
    }
    ~RoomWaiting() override { store_->release(); }

    // Ann moves with the disk stalled: the room is busy until release().
    void stall_with_a_move() {
        store_->hold = true;
        table_->ann->send({{"type", "move"},
                           {"game_id", table_->game_id},
                           {"move", table_->start["legal"][0]},
                           {"id", "m"}});
        ASSERT_TRUE(test::eventually([&] { return store_->held() == 1; }));
    }
    // A request that changes nothing (there is no draw offer), answered by the room in order.
    void decline(test::WsClient& client, const json& id) {
        client.send({{"type", "draw_decline"}, {"game_id", table_->game_id}, {"id", id}});
    }

    // The id of request `i` of crowd member `c`.
    static json crowd_id(std::size_t c, std::size_t i) { return 1000 * c + i; }

    EventHoldingStore* store_;
    std::unique_ptr<test::TestServer> server_;
    std::unique_ptr<test::Table> table_;
};

TEST_F(RoomWaiting, OneClientMayNotFillABusyRoom) {
    ASSERT_FALSE(table_->game_id.empty());
    stall_with_a_move();
    const int share = static_cast<int>(server::room_waiting_per_client);
    for (int i = 0; i < share + 3; ++i) {
        decline(*table_->ann, i);
    }
    for (int i = share; i < share + 3; ++i) {
        const auto refused = table_->ann->wait_error(i);
        EXPECT_EQ(refused["code"], "rate_limited");
        EXPECT_EQ(refused["game_id"], table_->game_id);
        EXPECT_NE(refused["message"].get<std::string>().find("busy"), std::string::npos);
    }
    decline(*table_->bob, "b");  // another client still has its share
    store_->release();
    EXPECT_EQ(table_->event(1)["kind"], "move");
    for (int i = 0; i < share; ++i) {
        EXPECT_EQ(table_->ann->wait_error(i)["code"], "no_draw_offer")
            << "a request that waited is handled once the batch is stored";
    }
    EXPECT_EQ(table_->bob->wait_error("b")["code"], "no_draw_offer");
    EXPECT_EQ(table_->snapshot(*table_->sam)["version"], 1) << "nothing else changed";
}

TEST_F(RoomWaiting, ABusyRoomHoldsAtMostItsLimit) {
    ASSERT_FALSE(table_->game_id.empty());
    const auto share = server::room_waiting_per_client;
    const auto clients = server::room_waiting_max / share;  // together they fill the room
    std::vector<std::unique_ptr<test::WsClient>> crowd;
    for (std::size_t c = 0; c < clients + 1; ++c) {
        crowd.push_back(std::make_unique<test::WsClient>(server_->port()));
        crowd.back()->hello();
    }
    stall_with_a_move();
    for (std::size_t c = 0; c < clients; ++c) {
        for (std::size_t i = 0; i < share; ++i) {
            decline(*crowd[c], crowd_id(c, i));
        }
        crowd[c]->sync();
    }
    decline(*crowd.back(), "late");
    const auto refused = crowd.back()->wait_error("late");
    EXPECT_EQ(refused["code"], "rate_limited");
    EXPECT_EQ(refused["game_id"], table_->game_id);
    store_->release();
    EXPECT_EQ(table_->event(1)["kind"], "move");
    for (std::size_t c = 0; c < clients; ++c) {
        for (std::size_t i = 0; i < share; ++i) {
            const auto answer = crowd[c]->wait_error(crowd_id(c, i));
            ASSERT_NE(answer["code"], "rate_limited") << "client " << c << " request " << i;
        }
    }
}

}  // namespace
