// The room directory (issue 42): what needs no read is known at once; a game not in memory is
// looked up on the blocking pool, the caller's thread never waiting for the store, and the answer
// comes back on the executor the caller names; a full pool refuses at once.
#include "server/game/room_directory.h"

#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <thread>

#include <boost/asio/io_context.hpp>

#include "protocol/requests.h"
#include "server/game/room.h"
#include "server/gated_store.h"
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
        auto prepared = state_.prepare_game(spec);
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

}  // namespace
