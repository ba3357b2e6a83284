// Issue 42, finding 14, cluster mode: a frozen (not dead) owner. A SIGSTOPped node still
// subscribes to its channel, so PUBSUB NUMSUB counts it and the relay took it for alive: its
// relayed clients heard nothing until it woke, even after another node had taken its game. Here
// the owner is a bare subscriber on its node's channel (as a frozen node is): a watcher of its
// game is told server_restarting once the game's lease is no longer the owner's, and a request it
// never answers is answered server_restarting, with its id, after relay_request_timeout.
#include "server/game/relay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "server/cluster/leases.h"
#include "server/cluster/pubsub.h"
#include "server/cluster/redis_client.h"
#include "server/cluster/relay_messages.h"
#include "server/cluster/test_redis.h"
#include "server/game/server_state.h"
#include "server/store/memory_store.h"

namespace relay_frozen_owner_test {

using nlohmann::json;
using namespace std::chrono_literals;
using server::cluster::RelayKind;
using server::cluster::RelayRecord;

// A client of the origin node that records what it is sent and where its session would relay.
class Watcher final : public server::Client, public std::enable_shared_from_this<Watcher> {
public:
    explicit Watcher(std::uint64_t id) : id_(id) {}
    std::uint64_t client_id() const override { return id_; }
    void send(server::Frame frame) override {
        std::lock_guard lock(mutex_);
        frames_.push_back(json::parse(*frame));
    }
    void watching(const std::shared_ptr<server::Room>&, bool) override {}
    void watching_elsewhere(const std::string& game_id, const std::string& owner,
                            bool on) override {
        std::lock_guard lock(mutex_);
        elsewhere_.emplace_back(game_id, owner, on);
    }
    void close_after_queued(std::uint16_t) override {}

    std::vector<json> frames() {
        std::lock_guard lock(mutex_);
        return frames_;
    }
    std::vector<std::tuple<std::string, std::string, bool>> elsewhere() {
        std::lock_guard lock(mutex_);
        return elsewhere_;
    }
    server::Actor actor() {
        server::Actor actor;
        actor.client = weak_from_this();
        actor.client_id = id_;
        actor.player_id = "p_" + std::to_string(id_);
        actor.name = "Player " + std::to_string(id_);
        return actor;
    }

private:
    const std::uint64_t id_;
    std::mutex mutex_;
    std::vector<json> frames_;
    std::vector<std::tuple<std::string, std::string, bool>> elsewhere_;
};

std::shared_ptr<Watcher> make_watcher(std::uint64_t id) {
    return std::make_shared<Watcher>(id);
}

// Leases of node `node_id` (1 s) in the Redis at `url`.
server::cluster::Leases::Options lease_options(const std::string& url, const std::string& node_id) {
    server::cluster::Leases::Options options;
    options.url = url;
    options.node_id = node_id;
    options.ttl = 1000ms;
    return options;
}

// The server_restarting errors about `game_id` among `frames`.
std::vector<json> restarting(const std::vector<json>& frames, const std::string& game_id) {
    std::vector<json> found;
    for (const auto& frame : frames) {
        if (frame.value("type", "") == "error" && frame.value("code", "") == "server_restarting" &&
            frame.value("game_id", "") == game_id) {
            found.push_back(frame);
        }
    }
    return found;
}

// A frame that answers no request: without an id (or a null one).
bool answers_no_request(const json& frame) {
    return !frame.contains("id") || frame.at("id").is_null();
}

// Waits up to `patience` for `done()`; whether it came true.
template <class Done>
bool wait_for(std::chrono::milliseconds patience, Done done) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    while (!done()) {
        if (std::chrono::steady_clock::now() >= deadline) {
            return false;
        }
        std::this_thread::sleep_for(10ms);
    }
    return true;
}

// A node that froze: it still subscribes to its channel (Redis counts it) and answers nothing;
// it counts the messages relayed to it. Its words, when the test speaks for it, are published on
// a connection of the test's.
class FrozenNode {
public:
    FrozenNode(const std::string& url, std::string prefix, std::string id)
        : prefix_(std::move(prefix)), id_(std::move(id)) {
        auto pubsub = server::cluster::PubSub::open(
            server::cluster::PubSub::Options{url},
            [this](const std::string&, const std::string&) { ++received_; });
        EXPECT_TRUE(pubsub) << pubsub.error();
        if (pubsub) {
            pubsub_ = std::move(*pubsub);
            auto subscribed = pubsub_->subscribe(server::cluster::node_channel(prefix_, id_));
            EXPECT_TRUE(subscribed) << subscribed.error();
        }
        auto parsed = server::cluster::parse_redis_url(url);
        EXPECT_TRUE(parsed) << parsed.error();
        if (parsed) {
            auto redis = server::cluster::RedisConnection::open(*parsed, 2000ms);
            EXPECT_TRUE(redis) << redis.error();
            if (redis) {
                redis_ = std::move(*redis);
            }
        }
    }
    int received() const { return received_.load(); }
    // Publishes `records` to node `to` as this node would (its room's words to a watcher).
    void say(const std::string& to, std::vector<RelayRecord> records) {
        for (auto& record : records) {
            record.from = id_;
        }
        ASSERT_TRUE(redis_);
        auto sent = redis_->command({"PUBLISH", server::cluster::node_channel(prefix_, to),
                                     server::cluster::encode_relay(records)});
        ASSERT_TRUE(sent) << sent.error();
        ASSERT_EQ(sent->integer, 1) << "the origin listens";
    }
    // How many subscribe to this node's channel (PUBSUB NUMSUB).
    std::int64_t listeners() {
        auto reply =
            redis_->command({"PUBSUB", "NUMSUB", server::cluster::node_channel(prefix_, id_)});
        return reply && reply->elements.size() == 2 ? reply->elements[1].integer : -1;
    }

private:
    const std::string prefix_;
    const std::string id_;
    std::atomic<int> received_{0};
    std::unique_ptr<server::cluster::PubSub> pubsub_;
    std::unique_ptr<server::cluster::RedisConnection> redis_;
};

// The owner's room now pushes `game_id` to `client` (and sends it its snapshot).
std::vector<RelayRecord> room_watched(std::uint64_t client, const std::string& game_id) {
    RelayRecord watching;
    watching.kind = RelayKind::watching;
    watching.client = client;
    watching.game_id = game_id;
    watching.on = true;
    RelayRecord snapshot;
    snapshot.kind = RelayKind::frame;
    snapshot.client = client;
    snapshot.text =
        json{{"type", "snapshot"}, {"id", "w"}, {"game_id", game_id}, {"version", 3}}.dump();
    return {watching, snapshot};
}

// A request of `client` for `game_id`, relayed to `owner`.
void relay_request(server::Relay& relay, const std::string& owner,
                   const std::shared_ptr<Watcher>& client, protocol::RequestType type,
                   const std::string& name, const json& id, const std::string& game_id) {
    protocol::Request request;
    request.type = type;
    request.id = id;
    request.game_id = game_id;
    relay.forward(owner, client, client->actor(), request,
                  json{{"type", name}, {"game_id", game_id}, {"id", id}}.dump());
}

TEST(RelayFrozenOwner, AWatcherIsToldOnceTheOwnerHoldsTheGamesLeaseNoMore) {
    test::PrivateRedis redis;
    ASSERT_TRUE(redis.start());
    const std::string prefix = server::cluster::Leases::Options{}.key_prefix;
    boost::asio::io_context io;
    auto store = server::make_memory_store();
    server::ServerState near(io, *store, server::Limits{}, "");
    ASSERT_TRUE(near.join_cluster(redis.url(), "near", 1000ms).ok());
    ASSERT_NE(near.relay(), nullptr);

    // Node "far" owns the game: its lease, renewed while its Leases run.
    const std::string game_id = "g_frozen";
    auto far_leases = server::cluster::Leases::open(lease_options(redis.url(), "far"), {});
    ASSERT_TRUE(far_leases) << far_leases.error();
    auto claim = (*far_leases)->acquire(game_id, 0);
    ASSERT_TRUE(claim && claim->mine);
    FrozenNode far(redis.url(), prefix, "far");

    // A client of "near" watches the game: the request goes to "far", whose room answers.
    auto watcher = make_watcher(7);
    relay_request(*near.relay(), "far", watcher, protocol::RequestType::watch, "watch", "w",
                  game_id);
    ASSERT_TRUE(wait_for(5s, [&] { return far.received() >= 1; })) << "relayed to the owner";
    ASSERT_NO_FATAL_FAILURE(far.say("near", room_watched(7, game_id)));
    ASSERT_TRUE(wait_for(5s, [&] { return watcher->frames().size() >= 1; }));
    EXPECT_EQ(watcher->frames().front().value("type", ""), "snapshot");
    ASSERT_EQ(watcher->elsewhere().size(), 1u);
    EXPECT_EQ(watcher->elsewhere().front(), std::make_tuple(game_id, std::string("far"), true));

    // While "far" holds the lease, its watcher is left alone (more than two sweeps).
    std::this_thread::sleep_for(1200ms);
    EXPECT_TRUE(restarting(watcher->frames(), game_id).empty()) << "the owner still owns it";

    // "far" freezes: its leases are renewed no more (its subscriber stays), and once the lease ran
    // out another node takes the game.
    far_leases->reset();
    auto other_leases = server::cluster::Leases::open(lease_options(redis.url(), "other"), {});
    ASSERT_TRUE(other_leases) << other_leases.error();
    ASSERT_TRUE(wait_for(3s, [&] {
        auto taken = (*other_leases)->acquire(game_id, 0);
        return taken && taken->mine;
    })) << "far's lease ran out";
    const auto taken = std::chrono::steady_clock::now();

    // Within a few sweeps the watcher hears that the game's room there is lost to it, and its
    // session relays the game no more (its next request is looked up again).
    ASSERT_TRUE(wait_for(3s, [&] { return !restarting(watcher->frames(), game_id).empty(); }))
        << "the watcher was not told server_restarting after far lost the game's lease";
    std::cout << "watcher told "
              << std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::steady_clock::now() - taken)
                     .count()
              << " ms after the game was taken\n";
    const auto told = restarting(watcher->frames(), game_id);
    ASSERT_EQ(told.size(), 1u);
    EXPECT_TRUE(answers_no_request(told.front())) << told.front();
    ASSERT_EQ(watcher->elsewhere().size(), 2u);
    EXPECT_EQ(watcher->elsewhere().back(), std::make_tuple(game_id, std::string("far"), false));
    EXPECT_EQ(far.listeners(), 1) << "far still subscribed throughout: NUMSUB could not tell";
}

TEST(RelayFrozenOwner, ARequestToAnOwnerThatNeverAnswersIsAnsweredAfterTheTimeout) {
    test::PrivateRedis redis;
    ASSERT_TRUE(redis.start());
    const auto prefix = test::unique_prefix();
    boost::asio::io_context io;
    auto store = server::make_memory_store();
    server::ServerState state(io, *store, server::Limits{}, "");
    auto relay = server::Relay::open(state, redis.url(), "near", prefix);
    ASSERT_TRUE(relay) << relay.error();
    FrozenNode far(redis.url(), prefix, "far");

    // A spectator of far's game g_watched, whose watch far answered before it froze.
    auto spectator = make_watcher(8);
    relay_request(**relay, "far", spectator, protocol::RequestType::watch, "watch", "w",
                  "g_watched");
    ASSERT_TRUE(wait_for(5s, [&] { return far.received() >= 1; }));
    ASSERT_NO_FATAL_FAILURE(far.say("near", room_watched(8, "g_watched")));
    ASSERT_TRUE(wait_for(5s, [&] { return spectator->elsewhere().size() == 1; }));

    // Frozen now: a move relayed to it is never answered.
    auto mover = make_watcher(9);
    const auto sent = std::chrono::steady_clock::now();
    relay_request(**relay, "far", mover, protocol::RequestType::move, "move", "m1", "g_moved");
    ASSERT_TRUE(wait_for(5s, [&] { return far.received() >= 2; })) << "relayed to the owner";
    ASSERT_TRUE(wait_for(server::relay_request_timeout + 2s, [&] {
        return !restarting(mover->frames(), "g_moved").empty();
    })) << "the move relayed to a silent owner was never answered";
    const auto waited = std::chrono::steady_clock::now() - sent;
    std::cout << "answered after "
              << std::chrono::duration_cast<std::chrono::milliseconds>(waited).count() << " ms\n";
    EXPECT_GE(waited, server::relay_request_timeout) << "the owner had its time to answer";
    const auto answer = restarting(mover->frames(), "g_moved");
    ASSERT_EQ(answer.size(), 1u) << "answered once";
    EXPECT_EQ(answer.front().value("id", json()), "m1");
    ASSERT_FALSE(mover->elsewhere().empty());
    EXPECT_EQ(mover->elsewhere().back(),
              std::make_tuple(std::string("g_moved"), std::string("far"), false));

    // The owner is treated as gone: its spectator here is told to reconnect too. Its watch, which
    // far answered, is not answered again.
    const auto spectator_told = restarting(spectator->frames(), "g_watched");
    ASSERT_EQ(spectator_told.size(), 1u);
    EXPECT_TRUE(answers_no_request(spectator_told.front())) << spectator_told.front();
    EXPECT_EQ(spectator->elsewhere().back(),
              std::make_tuple(std::string("g_watched"), std::string("far"), false));
    EXPECT_EQ(far.listeners(), 1) << "far still subscribed: NUMSUB could not tell";
}

// An owner that wakes after its request was answered server_restarting (issue 42): its reply to
// that request is not delivered — the client would hear twice about one request — while its other
// frames are, and a request sent again with the same id is answered as usual.
TEST(RelayFrozenOwner, AWokenOwnersReplyToARequestAnsweredForItIsNotDelivered) {
    test::PrivateRedis redis;
    ASSERT_TRUE(redis.start());
    const auto prefix = test::unique_prefix();
    boost::asio::io_context io;
    auto store = server::make_memory_store();
    server::ServerState state(io, *store, server::Limits{}, "");
    auto relay = server::Relay::open(state, redis.url(), "near", prefix);
    ASSERT_TRUE(relay) << relay.error();
    FrozenNode far(redis.url(), prefix, "far");

    auto mover = make_watcher(9);
    relay_request(**relay, "far", mover, protocol::RequestType::move, "move", "m1", "g_moved");
    ASSERT_TRUE(wait_for(5s, [&] { return far.received() >= 1; })) << "relayed to the owner";
    ASSERT_TRUE(wait_for(server::relay_request_timeout + 2s, [&] {
        return !restarting(mover->frames(), "g_moved").empty();
    })) << "the move relayed to a silent owner was never answered";

    // far wakes and answers the move, then pushes an event and answers something else.
    const auto frame = [](const json& body) {
        RelayRecord record;
        record.kind = RelayKind::frame;
        record.client = 9;
        record.text = body.dump();
        return record;
    };
    ASSERT_NO_FATAL_FAILURE(far.say(
        "near", {frame({{"type", "ack"}, {"id", "m1"}, {"game_id", "g_moved"}, {"version", 4}}),
                 frame({{"type", "event"}, {"game_id", "g_moved"}, {"version", 4}}),
                 frame({{"type", "ack"}, {"id", "other"}, {"game_id", "g_moved"}})}));
    ASSERT_TRUE(wait_for(5s, [&] {
        const auto frames = mover->frames();
        return std::any_of(frames.begin(), frames.end(),
                           [](const json& f) { return f.value("id", json()) == "other"; });
    })) << "far's later frames reach the mover";
    const auto with_id = [&](const std::string& id) {
        const auto frames = mover->frames();
        return std::count_if(frames.begin(), frames.end(),
                             [&](const json& f) { return f.value("id", json()) == id; });
    };
    EXPECT_EQ(with_id("m1"), 1) << "m1 answered once: server_restarting, not far's late ack too";
    const auto frames = mover->frames();
    EXPECT_TRUE(std::any_of(frames.begin(), frames.end(), [](const json& f) {
        return f.value("type", "") == "event";
    })) << "frames that answer nothing are delivered";

    // Asked again with the same id: far's answer is this request's, and it is delivered.
    relay_request(**relay, "far", mover, protocol::RequestType::move, "move", "m1", "g_moved");
    ASSERT_TRUE(wait_for(5s, [&] { return far.received() >= 2; }));
    ASSERT_NO_FATAL_FAILURE(far.say(
        "near", {frame({{"type", "ack"}, {"id", "m1"}, {"game_id", "g_moved"}, {"version", 5}})}));
    EXPECT_TRUE(wait_for(5s, [&] { return with_id("m1") == 2; }))
        << "the second m1's ack is delivered";
}

}  // namespace relay_frozen_owner_test
