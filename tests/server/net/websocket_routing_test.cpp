// Issue 42, findings 6 and 13: a game not in memory is looked up on the blocking pool, not on the
// I/O thread that serves the connection. With ONE I/O thread and the store's read of one game
// held at a gate, the other connections go on being served, and the asking connection's later
// requests are carried out after the lookup's answer, in the order they came.
#include "server/net/websocket_session.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "server/game_table.h"
#include "server/gated_store.h"
#include "server/server.h"
#include "server/storage_test_util.h"
#include "server/test_support.h"

namespace {

using test::json;
using test::WsClient;
using namespace std::chrono_literals;

class WsLookup : public ::testing::Test {
protected:
    WsLookup() { start(); }
    ~WsLookup() override {
        store_.open();  // a read still at the gate lets the server stop
        stop();
    }

    void start() {
        server::ServerOptions options;
        options.bind = "127.0.0.1";
        options.port = 0;
        options.web_root = dir_.path().string();
        options.limits = test::fast_limits();
        options.threads = 1;  // one I/O thread: a read made on it would stop every connection
        options.scheduled_tournaments = false;  // no pass of its own waiting at the gate
        auto started = server::Server::start(options, store_);
        ASSERT_TRUE(started.ok()) << started.error();
        server_ = std::move(*started);
    }
    void stop() {
        if (server_) {
            server_->shutdown();
            server_->wait();
            server_.reset();
        }
    }
    std::uint16_t port() const { return server_->port(); }

    // A Chesica game resigned at once, then a restart: the finished game is in the store only.
    std::string finished_game_in_store_only() {
        std::string game_id;
        {
            test::Table table(port(), "chesica");
            EXPECT_FALSE(table.game_id.empty());
            game_id = table.game_id;
            table.bob->send({{"type", "resign"}, {"game_id", game_id}});
            EXPECT_EQ(table.event(1)["kind"], "game_over");
        }
        stop();
        start();
        return game_id;
    }

    // True once a read of the gated game waits at the gate.
    bool read_at_gate() {
        return test::eventually([&] { return store_.arrived() > 0; });
    }

    storage_test::TempDir dir_;
    test::GatedStore store_;
    std::unique_ptr<server::Server> server_;
};

TEST_F(WsLookup, AGameReadWaitingOnTheStoreDoesNotStopOtherConnections) {
    WsClient asker(port());
    asker.hello();
    WsClient other(port());
    other.hello();
    WsClient late(port());  // connected now: a handshake would wait for the I/O thread on main

    store_.close_on("g_gated");
    asker.send({{"type", "watch"}, {"game_id", "g_gated"}, {"id", "w"}});
    ASSERT_TRUE(read_at_gate());

    // The one I/O thread is free: another connection is answered, hello included.
    other.send({{"type", "ping"}, {"id", "q"}});
    const auto pong =
        other.wait_for([](const json& m) { return m.value("id", json()) == "q"; }, 2000ms);
    ASSERT_TRUE(pong.is_object()) << "the I/O thread waits for the store";
    EXPECT_EQ(pong.value("type", ""), "pong");
    late.send({{"type", "hello"}, {"protocol", 1}, {"id", "h"}});
    const auto welcome =
        late.wait_for([](const json& m) { return m.value("id", json()) == "h"; }, 2000ms);
    ASSERT_TRUE(welcome.is_object());
    EXPECT_EQ(welcome.value("type", ""), "welcome");

    store_.open();
    const auto answer = asker.wait_error("w");
    EXPECT_EQ(answer["code"], "no_such_game");
    EXPECT_EQ(answer["game_id"], "g_gated");
    EXPECT_EQ(asker.schema_violations(), 0u);
}

TEST_F(WsLookup, RequestsAfterALookupAreCarriedOutAfterItsAnswerInOrder) {
    const auto game_id = finished_game_in_store_only();
    WsClient watcher(port());
    watcher.hello();  // a guest: no seat in the game, answered from the store
    WsClient other(port());
    other.hello();

    store_.close_on(game_id);
    watcher.send({{"type", "watch"}, {"game_id", game_id}, {"id", "w"}});
    watcher.send({{"type", "ping"}, {"id", "p"}});
    watcher.send({{"type", "unwatch"}, {"game_id", game_id}, {"id", "u"}});
    ASSERT_TRUE(read_at_gate());
    other.send({{"type", "ping"}, {"id", "q"}});
    const auto pong =
        other.wait_for([](const json& m) { return m.value("id", json()) == "q"; }, 2000ms);
    ASSERT_TRUE(pong.is_object()) << "the I/O thread waits for the store";
    EXPECT_EQ(pong.value("type", ""), "pong");

    store_.open();
    const auto is_answer = [](const json& m) {
        const auto id = m.value("id", json());
        return id == "w" || id == "p" || id == "u";
    };
    const auto first = watcher.wait_for(is_answer);
    EXPECT_EQ(first.value("type", ""), "snapshot") << first.dump();
    EXPECT_EQ(first.value("id", json()), "w");
    EXPECT_EQ(first.value("game_id", ""), game_id);
    const auto second = watcher.wait_for(is_answer);
    EXPECT_EQ(second.value("type", ""), "pong") << second.dump();
    const auto third = watcher.wait_for(is_answer);
    EXPECT_EQ(third.value("type", ""), "ack") << third.dump();
    EXPECT_EQ(third.value("id", json()), "u");
    EXPECT_EQ(store_.arrived(), 2) << "the watch and the unwatch each read the record";
    EXPECT_EQ(watcher.schema_violations(), 0u);
}

}  // namespace
