// A tournament game's room (issue 43) over a memory store, driven on the test's own io_context
// with a hand-moved clock: a berserk reaches the watchers with the clocks after it and is in the
// snapshot, a restored room has the same clocks; a missed first move ends the game `no_start`;
// the tournament hears of the end once it is durable, once, and not when the commit failed nor
// from a room restored over a finished game.
#include "server/game/room.h"

#include <gtest/gtest.h>

#include <mutex>

#include <boost/asio/io_context.hpp>

#include "protocol/schema_validator.h"
#include "server/game/game_factory.h"
#include "server/game/room_directory.h"
#include "server/game/server_state.h"
#include "server/manual_time.h"
#include "server/test_stores.h"
#include "server/test_support.h"

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using protocol::RequestType;

// Keeps every frame it is sent, as JSON.
class FakeClient final : public server::Client {
public:
    explicit FakeClient(std::uint64_t id) : id_(id) {}
    std::uint64_t client_id() const override { return id_; }
    void send(server::Frame frame) override {
        std::lock_guard lock(mutex_);
        frames_.push_back(json::parse(*frame));
    }
    void watching(const std::shared_ptr<server::Room>&, bool) override {}
    void close_after_queued(std::uint16_t) override {}
    std::vector<json> frames() const {
        std::lock_guard lock(mutex_);
        return frames_;
    }

private:
    std::uint64_t id_;
    mutable std::mutex mutex_;
    std::vector<json> frames_;
};

// The tournament's side: every end it is told of.
class FakeNews final : public server::TournamentNews {
public:
    void game_ended(server::TournamentGameEnd end) override {
        std::lock_guard lock(mutex_);
        ends_.push_back(std::move(end));
    }
    std::vector<server::TournamentGameEnd> ends() const {
        std::lock_guard lock(mutex_);
        return ends_;
    }

private:
    mutable std::mutex mutex_;
    std::vector<server::TournamentGameEnd> ends_;
};

// A state whose tournament news is `news`, over `store`, on `io`'s strands.
struct Node {
    Node(test::ControlledStore& store, std::shared_ptr<test::ManualTime> time, FakeNews& news)
        : state(io, store, test::fast_limits(), "", std::move(time)) {
        state.set_tournament_news(&news);
    }
    boost::asio::io_context io;
    server::ServerState state;
};

class TournamentRoom : public ::testing::Test {
protected:
    TournamentRoom() {
        for (const char* id : {"p_ann", "p_bob"}) {
            EXPECT_TRUE(store_.insert_player({id, id, std::string("hash_") + id, 1}).ok());
        }
        server::GameSpec spec;
        spec.variant = core::VariantId::chessence;
        spec.seats = {"p_ann", "p_bob"};
        spec.clock = *protocol::parse_time_control("180+2");
        spec.tournament_id = "t_arena";
        spec.berserkable = true;
        auto prepared = node_->state.games().prepare(spec);
        EXPECT_TRUE(prepared.ok()) << prepared.error();
        if (prepared) {
            game_id_ = prepared->room->id();
            EXPECT_TRUE(store_.commit_sync(std::move(prepared->writes)).ok());
        }
        auto room = node_->state.rooms().room(game_id_);
        EXPECT_TRUE(room.ok() && *room) << (room.ok() ? "no room" : room.error());
        room_ = room.ok() ? *room : nullptr;
        for (auto& client : {ann_, bob_, sam_}) {
            send(*client, RequestType::watch);
        }
        EXPECT_TRUE(run_until([&] { return !snapshots(*sam_).empty(); }));
    }

    server::Actor actor(const std::shared_ptr<FakeClient>& client) const {
        server::Actor a;
        a.client = client;
        a.client_id = client->client_id();
        a.player_id = client == ann_ ? "p_ann" : client == bob_ ? "p_bob" : "p_sam";
        a.name = a.player_id;
        return a;
    }
    void send(FakeClient& client, RequestType type, const std::string& id = "") {
        protocol::Request request;
        request.type = type;
        request.game_id = game_id_;
        if (!id.empty()) {
            request.id = id;
        }
        const auto& holder = &client == ann_.get() ? ann_ : &client == bob_.get() ? bob_ : sam_;
        room_->post_request(actor(holder), request);
    }
    // Runs the node's io_context (`node`'s, or the fixture's) until `done` or `timeout` passed.
    bool run_until(const std::function<bool()>& done, Node* node = nullptr,
                   std::chrono::milliseconds timeout = 5s) {
        auto& io = (node ? *node : *node_).io;
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!done() && std::chrono::steady_clock::now() < deadline) {
            io.restart();
            io.run_for(5ms);
        }
        return done();
    }
    static std::vector<json> of_type(const FakeClient& client, const std::string& type) {
        std::vector<json> out;
        for (const auto& frame : client.frames()) {
            if (frame.value("type", "") == type) {
                out.push_back(frame);
            }
        }
        return out;
    }
    static std::vector<json> snapshots(const FakeClient& client) {
        return of_type(client, "snapshot");
    }
    static std::vector<json> events(const FakeClient& client) { return of_type(client, "event"); }
    static std::optional<json> error_for(const FakeClient& client, const std::string& id) {
        for (const auto& frame : of_type(client, "error")) {
            if (frame.value("id", json()) == id) {
                return frame;
            }
        }
        return std::nullopt;
    }

    // Every frame the room sent matches its schema (docs/schema/server/).
    void TearDown() override {
        schema::Validator validator(schema::protocol_schema_root());
        for (const auto& client : {ann_, bob_, sam_}) {
            for (const auto& frame : client->frames()) {
                const auto problems = validator.validate_message(frame, "server");
                EXPECT_TRUE(problems.empty()) << frame.dump() << ": " << problems.front();
            }
        }
    }

    test::ControlledStore store_;
    std::shared_ptr<test::ManualTime> time_ = std::make_shared<test::ManualTime>();
    FakeNews news_;
    std::unique_ptr<Node> node_ = std::make_unique<Node>(store_, time_, news_);
    std::string game_id_;
    std::shared_ptr<server::Room> room_;
    std::shared_ptr<FakeClient> ann_ = std::make_shared<FakeClient>(1);
    std::shared_ptr<FakeClient> bob_ = std::make_shared<FakeClient>(2);
    std::shared_ptr<FakeClient> sam_ = std::make_shared<FakeClient>(3);
};

TEST_F(TournamentRoom, TheSnapshotNamesTheTournamentAndNobodyIsBerserkYet) {
    const auto snapshot = snapshots(*sam_).back();
    EXPECT_EQ(snapshot["tournament_id"], "t_arena");
    EXPECT_EQ(snapshot["berserkable"], true);
    EXPECT_EQ(snapshot["berserk"], json::array({false, false}));
}

TEST_F(TournamentRoom, ABerserkReachesTheWatchersAndARestoredRoomHasTheSameClocks) {
    send(*bob_, RequestType::berserk, "b1");
    ASSERT_TRUE(run_until([&] { return !events(*sam_).empty(); }));
    const auto event = events(*sam_).front()["event"];
    EXPECT_EQ(event["kind"], "berserk");
    EXPECT_EQ(event["by"], "black");
    EXPECT_EQ(event["clock"]["white"], 180000);
    EXPECT_EQ(event["clock"]["black"], 90000);
    EXPECT_TRUE(event["clock"]["running"].is_null());

    send(*sam_, RequestType::berserk, "s1");
    send(*bob_, RequestType::berserk, "b2");
    ASSERT_TRUE(run_until([&] { return error_for(*bob_, "b2").has_value(); }));
    EXPECT_EQ((*error_for(*sam_, "s1"))["code"], "not_a_player");
    EXPECT_EQ((*error_for(*bob_, "b2"))["code"], "already_berserk");

    send(*sam_, RequestType::watch);
    ASSERT_TRUE(run_until([&] { return snapshots(*sam_).size() == 2; }));
    const auto live = snapshots(*sam_).back();
    EXPECT_EQ(live["berserk"], json::array({false, true}));
    EXPECT_EQ(live["clock"]["black"], 90000);

    FakeNews other_news;
    Node restarted(store_, time_, other_news);
    auto restored = restarted.state.rooms().room(game_id_);
    ASSERT_TRUE(restored.ok() && *restored);
    auto watcher = std::make_shared<FakeClient>(9);
    server::Actor a;
    a.client = watcher;
    a.client_id = 9;
    a.player_id = "p_sam";
    protocol::Request watch;
    watch.type = RequestType::watch;
    watch.game_id = game_id_;
    (*restored)->post_request(a, watch);
    ASSERT_TRUE(run_until([&] { return !snapshots(*watcher).empty(); }, &restarted));
    const auto replayed = snapshots(*watcher).front();
    EXPECT_EQ(replayed["clock"], live["clock"]);
    EXPECT_EQ(replayed["berserk"], live["berserk"]);
}

TEST_F(TournamentRoom, AMissedFirstMoveLosesAndTheTournamentHearsOfItOnce) {
    send(*ann_, RequestType::abort, "a1");
    ASSERT_TRUE(run_until([&] { return error_for(*ann_, "a1").has_value(); }));
    EXPECT_EQ((*error_for(*ann_, "a1"))["code"], "wrong_phase");

    time_->advance(server::first_move_window);
    ASSERT_TRUE(run_until([&] { return !news_.ends().empty(); }));
    const auto over = events(*sam_).back()["event"];
    EXPECT_EQ(over["kind"], "game_over");
    EXPECT_EQ(over["result"], (json{{"winner", "black"}, {"reason", "no_start"}}));
    const auto end = news_.ends().front();
    EXPECT_EQ(end.tournament_id, "t_arena");
    EXPECT_EQ(end.game_id, game_id_);
    EXPECT_EQ(end.winner_seat, 1);
    EXPECT_EQ(end.reason, "no_start");
    EXPECT_EQ(end.plies, 0);
    EXPECT_EQ(end.missed_first_move_seat, 0);

    send(*bob_, RequestType::rematch_offer, "r1");
    ASSERT_TRUE(run_until([&] { return error_for(*bob_, "r1").has_value(); }));
    EXPECT_EQ((*error_for(*bob_, "r1"))["code"], "wrong_phase");
    EXPECT_EQ(news_.ends().size(), 1u) << "told once";

    FakeNews other_news;
    Node restarted(store_, time_, other_news);
    ASSERT_TRUE(restarted.state.rooms().room(game_id_).ok());
    run_until([] { return false; }, &restarted, 500ms);  // time for a news that must not come
    EXPECT_TRUE(other_news.ends().empty()) << "a restored room over a finished game tells nothing";
}

TEST_F(TournamentRoom, AnEndWhoseCommitFailedIsNotToldAndTheOneThatLandsIs) {
    send(*bob_, RequestType::berserk, "b1");
    ASSERT_TRUE(run_until([&] { return !events(*sam_).empty(); }));
    store_.fail_appends = true;
    send(*ann_, RequestType::resign, "r1");
    ASSERT_TRUE(run_until([&] { return error_for(*ann_, "r1").has_value(); }));
    EXPECT_EQ((*error_for(*ann_, "r1"))["code"], "internal_error");
    EXPECT_TRUE(news_.ends().empty());

    store_.fail_appends = false;
    send(*ann_, RequestType::resign, "r2");
    ASSERT_TRUE(run_until([&] { return !news_.ends().empty(); }));
    const auto end = news_.ends().front();
    EXPECT_EQ(end.winner_seat, 1);
    EXPECT_EQ(end.reason, "resignation");
    EXPECT_EQ(end.berserk, (std::array<bool, 2>{false, true}));
    EXPECT_FALSE(end.missed_first_move_seat.has_value());
    EXPECT_EQ(news_.ends().size(), 1u);
}

}  // namespace
