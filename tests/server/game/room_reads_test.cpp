// Issue 42 (slice 3): a room reads the store off its strand. The read-back of a batch reported
// failed (Room::landed) and the events a rebuild replays are read on the blocking pool while the
// room holds its requests: a store that hangs holds that room only — its later requests are
// answered in order once the read is back — and the other rooms (and the I/O threads) go on.
#include "server/game/room.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "server/game_table.h"
#include "server/gated_store.h"

namespace {

using namespace std::chrono_literals;
using test::json;
using test::Table;

class RoomReads : public ::testing::Test {
protected:
    RoomReads() {
        auto store = std::make_unique<test::GatedStore>();
        store_ = store.get();
        server_ = std::make_unique<test::TestServer>(test::fast_limits(), std::move(store));
    }
    ~RoomReads() override { store_->open(); }

    // While the held rooms wait for the store, a move in `free` is stored and told at once.
    static void expect_answered_meanwhile(Table& free) {
        const auto before = free.snapshot(*free.sam);
        const auto start = std::chrono::steady_clock::now();
        free.ann->send({{"type", "move"},
                        {"game_id", free.game_id},
                        {"move", before["legal"][0]},
                        {"id", "free"}});
        const auto answer =
            free.ann->wait_for([](const json& m) { return m.value("id", json()) == "free"; }, 3s);
        EXPECT_EQ(answer.value("type", ""), "ack") << answer.dump();
        EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
    }

    // The answer to `client`'s request `id` has not come (after a round trip with the server).
    static bool unanswered(test::WsClient& client, const std::string& id) {
        client.sync();
        for (const auto& m : client.history()) {
            if (m.value("id", json()) == id) {
                return false;
            }
        }
        return true;
    }

    test::GatedStore* store_ = nullptr;
    std::unique_ptr<test::TestServer> server_;
};

TEST_F(RoomReads, AReadBackHoldsItsRoomOnlyAndItsRequestsFollowInOrder) {
    Table first(server_->port(), "chesica");
    Table second(server_->port(), "chesica");
    Table free(server_->port(), "chesica");
    ASSERT_FALSE(first.game_id.empty());
    ASSERT_FALSE(second.game_id.empty());
    ASSERT_FALSE(free.game_id.empty());
    const auto one = first.snapshot(*first.sam);
    const auto two = second.snapshot(*second.sam);

    // Both moves are stored but reported failed: each room reads back what it wrote, and the
    // store holds both reads (as many as the server has I/O threads).
    store_->land_then_fail = 2;
    store_->close("events");
    first.ann->send(
        {{"type", "move"}, {"game_id", first.game_id}, {"move", one["legal"][0]}, {"id", "m1"}});
    second.ann->send(
        {{"type", "move"}, {"game_id", second.game_id}, {"move", two["legal"][0]}, {"id", "m2"}});
    ASSERT_TRUE(store_->wait_held(2));
    first.bob->send({{"type", "draw_offer"}, {"game_id", first.game_id}, {"id", "d1"}});
    first.bob->send({{"type", "chat"}, {"game_id", first.game_id}, {"text", "hi"}, {"id", "c1"}});

    expect_answered_meanwhile(free);
    EXPECT_TRUE(unanswered(*first.ann, "m1")) << "the read-back still waits";
    EXPECT_TRUE(unanswered(*first.bob, "d1")) << "and the room's later requests with it";
    EXPECT_EQ(store_->held(), 2);

    store_->open();
    // The move landed: it is acknowledged and told, then the requests that waited, in order.
    const auto moved =
        first.ann->wait_for([](const json& m) { return m.value("id", json()) == "m1"; });
    EXPECT_EQ(moved.value("type", ""), "ack") << moved.dump();
    EXPECT_EQ(first.event(1)["move"], one["legal"][0]);
    EXPECT_EQ(first.event(2)["kind"], "draw_offered");
    const auto offered =
        first.bob->wait_for([](const json& m) { return m.value("id", json()) == "d1"; });
    EXPECT_EQ(offered.value("type", ""), "ack") << offered.dump();
    EXPECT_EQ(offered.value("version", 0), 2);
    const auto said =
        first.bob->wait_for([](const json& m) { return m.value("id", json()) == "c1"; });
    EXPECT_EQ(said.value("type", ""), "ack") << said.dump();
    const auto other =
        second.ann->wait_for([](const json& m) { return m.value("id", json()) == "m2"; });
    EXPECT_EQ(other.value("type", ""), "ack") << other.dump();
    EXPECT_EQ(server_->store().events(first.game_id).value().size(), 2u) << "each event once";
}

TEST_F(RoomReads, ARebuildHoldsItsRoomOnlyAndItsRequestsFollowInOrder) {
    Table first(server_->port(), "chesica");
    Table second(server_->port(), "chesica");
    Table free(server_->port(), "chesica");
    ASSERT_FALSE(first.game_id.empty());
    ASSERT_FALSE(second.game_id.empty());
    ASSERT_FALSE(free.game_id.empty());
    const auto one = first.snapshot(*first.sam);

    // Each chat's commit throws: the room rebuilds itself from its events, read off its strand.
    store_->close("events");
    store_->throw_commits = 1;
    first.ann->send({{"type", "chat"}, {"game_id", first.game_id}, {"text", "a"}, {"id", "c1"}});
    ASSERT_TRUE(store_->wait_held(1));
    store_->throw_commits = 1;
    second.ann->send({{"type", "chat"}, {"game_id", second.game_id}, {"text", "b"}, {"id", "c2"}});
    ASSERT_TRUE(store_->wait_held(2));
    first.ann->send(
        {{"type", "move"}, {"game_id", first.game_id}, {"move", one["legal"][0]}, {"id", "m1"}});
    // On the same connection as the move: two sockets' frames reach the room in whichever order
    // their threads run, one connection's in the order sent.
    first.ann->send({{"type", "draw_offer"}, {"game_id", first.game_id}, {"id", "d1"}});

    expect_answered_meanwhile(free);
    EXPECT_EQ(first.ann->wait_error("c1")["code"], "internal_error") << "told at once";
    EXPECT_TRUE(unanswered(*first.ann, "m1")) << "the rebuild still waits";
    EXPECT_EQ(store_->held(), 2);

    store_->open();
    const auto moved =
        first.ann->wait_for([](const json& m) { return m.value("id", json()) == "m1"; });
    EXPECT_EQ(moved.value("type", ""), "ack") << moved.dump();
    EXPECT_EQ(first.event(1)["move"], one["legal"][0]);
    EXPECT_EQ(first.event(2)["kind"], "draw_offered");
    const auto offered =
        first.ann->wait_for([](const json& m) { return m.value("id", json()) == "d1"; });
    EXPECT_EQ(offered.value("version", 0), 2) << offered.dump();
    EXPECT_EQ(second.ann->wait_error("c2")["code"], "internal_error");
}

TEST_F(RoomReads, ARematchIsCreatedOffTheStrandAndStartsOneGame) {
    Table first(server_->port(), "chesica");
    Table second(server_->port(), "chesica");
    Table free(server_->port(), "chesica");
    ASSERT_FALSE(free.game_id.empty());
    for (auto* table : {&first, &second}) {
        ASSERT_FALSE(table->game_id.empty());
        table->ann->send({{"type", "resign"}, {"game_id", table->game_id}});
        EXPECT_EQ(table->event(++table->version)["kind"], "game_over");
        table->bob->send({{"type", "rematch_offer"}, {"game_id", table->game_id}});
        EXPECT_EQ(table->event(++table->version)["kind"], "rematch_offered");
    }

    // Each acceptance creates the new game: its players' names wait for the store.
    store_->close("player");
    first.ann->send({{"type", "rematch_accept"}, {"game_id", first.game_id}, {"id", "r1"}});
    second.ann->send({{"type", "rematch_accept"}, {"game_id", second.game_id}, {"id", "r2"}});
    ASSERT_TRUE(store_->wait_held(2));
    // Accepted again, and offered again, while the new game is being created: these wait.
    first.ann->send({{"type", "rematch_accept"}, {"game_id", first.game_id}, {"id", "again"}});
    first.bob->send({{"type", "rematch_offer"}, {"game_id", first.game_id}, {"id", "offer"}});

    expect_answered_meanwhile(free);
    EXPECT_TRUE(unanswered(*first.ann, "r1"));
    EXPECT_TRUE(unanswered(*first.ann, "again"));

    store_->open();
    const auto started = first.event(++first.version);
    EXPECT_EQ(started["kind"], "rematch_started");
    EXPECT_EQ(first.ann->wait_error("again")["code"], "wrong_phase") << "started already";
    EXPECT_EQ(first.bob->wait_error("offer")["code"], "wrong_phase");
    const std::string next = started.value("new_game_id", "");
    first.ann->wait_for([&](const json& m) {
        return m.value("type", "") == "game_started" && m.value("game_id", "") == next;
    });
    first.ann->sync();
    first.bob->sync();
    EXPECT_EQ(first.ann->history_of("game_started").size(), 2u) << "the first game, the rematch";
    EXPECT_EQ(first.bob->history_of("game_started").size(), 2u);
    EXPECT_EQ(second.event(++second.version)["kind"], "rematch_started");
}

}  // namespace
