// The room directory (issue 42): what needs no read is known at once; a game not in memory is
// looked up on the blocking pool, the caller's thread never waiting for the store, and the answer
// comes back on the executor the caller names; a full pool refuses at once; in cluster mode a
// claim that kept meeting a former owner's lock is answered "try again".
#include "server/game/room_directory.h"

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <thread>

#include <unistd.h>

#include <boost/asio/io_context.hpp>

#include "protocol/requests.h"
#include "server/cluster/leases.h"
#include "server/cluster/test_redis.h"
#include "server/game/game_factory.h"
#include "server/game/room.h"
#include "server/gated_store.h"
#include "server/store/memory_store.h"
#include "server/test_support.h"

namespace {

using namespace std::chrono_literals;

// A state over a gated store with two stored players and a chesica game between them that is
// stored but not in memory.
class Directory : public ::testing::Test {
protected:
    Directory() : state_(io_, store_, limits_with_one_blocking_thread(), "") {
        for (const char* id : {"p_ann", "p_bob"}) {
            EXPECT_TRUE(store_.insert_player({id, id, std::string("hash_") + id, 1}).ok());
        }
        server::GameSpec spec;
        spec.variant = core::VariantId::chesica;
        spec.seats = {"p_ann", "p_bob"};
        auto prepared = state_.games().prepare(spec);
        EXPECT_TRUE(prepared.ok()) << prepared.error();
        if (prepared) {
            game_id_ = prepared->room->id();
            EXPECT_TRUE(store_.commit_sync(std::move(prepared->writes)).ok());
        }
    }
    ~Directory() override { store_.open(); }

    static server::Limits limits_with_one_blocking_thread() {
        auto limits = test::fast_limits();
        limits.blocking_threads = 1;
        return limits;
    }

    server::Actor stranger() const {
        server::Actor actor;
        actor.player_id = "p_zed";
        actor.name = "Zed";
        return actor;
    }
    protocol::Request watch_of(const std::string& game_id) const {
        protocol::Request request;
        request.type = protocol::RequestType::watch;
        request.game_id = game_id;
        return request;
    }

    // Runs io_ until `done` or 5 s passed.
    bool run_until(const std::atomic<bool>& done) {
        const auto deadline = std::chrono::steady_clock::now() + 5s;
        while (!done && std::chrono::steady_clock::now() < deadline) {
            io_.restart();
            io_.run_for(10ms);
        }
        return done;
    }

    boost::asio::io_context io_;
    test::GatedStore store_;
    server::ServerState state_;
    std::string game_id_;
};

TEST_F(Directory, WhatNeedsNoReadIsKnownAtOnce) {
    store_.close_on(game_id_);
    EXPECT_FALSE(state_.rooms().known(game_id_).has_value()) << "only the store can tell";
    EXPECT_EQ(store_.arrived(), 0) << "known() reads nothing";

    store_.open();
    ASSERT_TRUE(state_.rooms().room(game_id_).ok());
    const auto in_memory = state_.rooms().known(game_id_);
    ASSERT_TRUE(in_memory.has_value());
    ASSERT_NE(in_memory->room, nullptr);
    EXPECT_EQ(in_memory->room->id(), game_id_);

    ASSERT_TRUE(state_.rooms().room("g_none").ok());
    store_.close_on("g_none");
    const int reads = store_.arrived();
    const auto none = state_.rooms().known("g_none");
    ASSERT_TRUE(none.has_value()) << "remembered as no game";
    EXPECT_EQ(none->room, nullptr);
    EXPECT_FALSE(none->finished.has_value());
    EXPECT_EQ(store_.arrived(), reads) << "not read again";
}

TEST_F(Directory, ALookupWaitsForTheStoreOnThePoolAndAnswersOnTheCallersExecutor) {
    store_.close_on(game_id_);
    std::atomic<bool> done{false};
    std::optional<std::thread::id> answered_on;
    std::shared_ptr<server::Room> found;
    const auto started = std::chrono::steady_clock::now();
    ASSERT_TRUE(state_.rooms().lookup(stranger(), watch_of(game_id_), io_.get_executor(),
                                      [&](core::Expected<server::GameLookup> game) {
                                          answered_on = std::this_thread::get_id();
                                          if (game) {
                                              found = game->room;
                                          }
                                          done = true;
                                      }));
    EXPECT_LT(std::chrono::steady_clock::now() - started, 1s) << "the caller did not wait";
    ASSERT_TRUE(test::eventually([&] { return store_.arrived() == 1; }))
        << "the read is made on the pool";
    io_.restart();
    io_.run_for(50ms);
    EXPECT_FALSE(done) << "no answer while the store has not answered";

    store_.open();
    ASSERT_TRUE(run_until(done));
    EXPECT_EQ(answered_on, std::this_thread::get_id()) << "answered on io_, which this thread runs";
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->id(), game_id_);
    EXPECT_EQ(state_.loaded_room(game_id_), found);
}

TEST_F(Directory, AFullPoolRefusesALookupAtOnce) {
    store_.close_on(game_id_);
    std::atomic<int> answers{0};
    const auto ask = [&] {
        return state_.rooms().lookup(stranger(), watch_of(game_id_), io_.get_executor(),
                                     [&](core::Expected<server::GameLookup>) { ++answers; });
    };
    ASSERT_TRUE(ask());  // takes the one thread, which waits at the gate
    ASSERT_TRUE(test::eventually([&] { return store_.arrived() == 1; }));
    std::size_t queued = 0;
    while (queued <= server::blocking_queue_max && ask()) {
        ++queued;
    }
    EXPECT_EQ(queued, server::blocking_queue_max) << "the queue holds blocking_queue_max jobs";
    EXPECT_FALSE(ask()) << "refused at once while the queue is full";

    store_.open();
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (answers.load() < static_cast<int>(queued + 1) &&
           std::chrono::steady_clock::now() < deadline) {
        io_.restart();
        io_.run_for(10ms);
    }
    EXPECT_EQ(answers.load(), static_cast<int>(queued + 1)) << "every accepted lookup is answered";
}

// A memory store whose claims meet a former owner's row lock, as PostgresStore::claim_game reports
// it after its tries, until `contended` turns false.
class ContendedClaims final : public server::MemoryStore {
public:
    core::Status claim_game(const server::ClaimGame& claim) override {
        if (contended) {
            return core::make_error(std::string(server::claim_contended_prefix) + "game " +
                                    claim.game_id + " is still locked by a former owner's batch");
        }
        return MemoryStore::claim_game(claim);
    }
    std::atomic<bool> contended{true};
};

// Cluster mode (issue 42, finding 15): a load whose claim kept meeting a former owner's lock lets
// the game's lease go and fails with an error the sessions answer server_restarting (an
// owned-elsewhere error naming no owner: send it again in a moment), not internal_error; loaded
// again once the lock is gone, the game is claimed.
TEST(DirectoryClaims, AContendedClaimIsAnsweredTryAgainAndLetsTheLeaseGo) {
    const auto redis = test::test_redis_url();
    ASSERT_TRUE(redis.ok()) << redis.error();
    boost::asio::io_context io;
    ContendedClaims store;
    server::ServerState state(io, store, test::fast_limits(), "");
    for (const char* id : {"p_ann", "p_bob"}) {
        ASSERT_TRUE(store.insert_player({id, id, std::string("hash_") + id, 1}).ok());
    }
    server::GameSpec spec;
    spec.seats = {"p_ann", "p_bob"};
    auto prepared = state.games().prepare(spec);
    ASSERT_TRUE(prepared.ok()) << prepared.error();
    const auto game_id = prepared->room->id();
    ASSERT_TRUE(store.commit_sync(std::move(prepared->writes)).ok());
    ASSERT_TRUE(state.join_cluster(*redis, "claims-" + std::to_string(::getpid()), 5s).ok());

    const auto contended = state.rooms().room(game_id);
    ASSERT_FALSE(contended.ok());
    EXPECT_TRUE(contended.error().starts_with(server::owned_elsewhere_prefix)) << contended.error();
    EXPECT_EQ(server::owner_named_in(contended.error()), "") << "no owner to relay to";
    EXPECT_NE(contended.error().find("try again"), std::string::npos) << contended.error();
    EXPECT_EQ(state.leases()->held_count(), 0u) << "the lease was let go";
    EXPECT_EQ(state.rooms().loaded(game_id), nullptr);

    store.contended = false;
    const auto loaded = state.rooms().room(game_id);
    ASSERT_TRUE(loaded.ok() && *loaded) << (loaded.ok() ? "no room" : loaded.error());
    EXPECT_EQ(state.leases()->held_count(), 1u);
    EXPECT_GT(store.game(game_id).value()->fence, 0) << "claimed in the store";
    // The loaded room's posted work runs before the state goes (it holds the room).
    io.restart();
    io.poll();
}

}  // namespace
