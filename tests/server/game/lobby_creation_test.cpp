// Issue 42 (slice 3): the lobby creates a game off its strand. The players' names are read (and,
// in cluster mode, the game's lease is taken) on the blocking pool, so a store that hangs holds
// only that pairing, never the lobby: another player's seek is answered meanwhile. The accepted
// seek is off the book while its game is created — nobody else pairs it, its creator cannot
// cancel it half-way — and comes back when the game cannot be created.
#include "server/game/lobby.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "protocol/requests.h"
#include "server/blocking_pool.h"
#include "server/game/server_state.h"
#include "server/gated_store.h"
#include "server/test_support.h"

namespace {

using namespace std::chrono_literals;
using test::json;
using test::WsClient;

class LobbyCreation : public ::testing::Test {
protected:
    LobbyCreation() {
        auto store = std::make_unique<test::GatedStore>();
        store_ = store.get();
        server_ = std::make_unique<test::TestServer>(test::fast_limits(), std::move(store));
    }
    ~LobbyCreation() override { store_->open(); }

    // `client`'s seek (a chesica one), once created.
    static std::string make_seek(WsClient& client, const std::string& id) {
        client.send({{"type", "seek_create"}, {"variant", "chesica"}, {"id", id}});
        const auto created =
            client.wait_for([&](const json& m) { return m.value("id", json()) == id; });
        EXPECT_EQ(created["type"], "seek_created") << created.dump();
        return created["seek"].value("seek_id", "");
    }

    test::GatedStore* store_ = nullptr;
    std::unique_ptr<test::TestServer> server_;
};

// An account's seek shows its rating: read on the blocking pool before the request reaches the
// lobby, so a ratings read that hangs holds that one connection, never the lobby; the
// connection's later requests wait for it and are carried out in order.
TEST_F(LobbyCreation, AnAccountsRatingIsReadBeforeTheLobbyNotOnItsStrand) {
    WsClient ann(server_->port());
    WsClient carol(server_->port());
    ann.hello();
    carol.hello();
    ann.send({{"type", "register"}, {"username", "annie"}, {"password", "long enough"}});
    ann.wait_type("signed_in");

    store_->close("ratings_of");
    ann.send({{"type", "seek_create"}, {"variant", "chessence"}, {"id", "rated"}});
    ASSERT_TRUE(store_->wait_held(1)) << "the seek reads its creator's ratings";
    ann.send({{"type", "lobby_subscribe"}, {"id", "after"}});

    const auto start = std::chrono::steady_clock::now();
    carol.send({{"type", "seek_create"}, {"variant", "chesica"}, {"id", "c"}});
    const auto created =
        carol.wait_for([](const json& m) { return m.value("id", json()) == "c"; }, 3000ms);
    EXPECT_EQ(created.value("type", ""), "seek_created") << created.dump();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 3s) << "not after the read";

    store_->open();
    const auto seek = ann.wait_for([](const json& m) { return m.value("id", json()) == "rated"; });
    EXPECT_EQ(seek.value("type", ""), "seek_created") << seek.dump();
    EXPECT_EQ(seek["seek"].value("rating", 0), 1500);
    // The subscription sent after the seek was carried out after it: its lobby lists the seek.
    const auto lobby = ann.wait_for([](const json& m) { return m.value("id", json()) == "after"; });
    ASSERT_EQ(lobby.value("type", ""), "lobby") << lobby.dump();
    bool listed = false;
    for (const auto& s : lobby["seeks"]) {
        listed = listed || s.value("seek_id", "") == seek["seek"].value("seek_id", "?");
    }
    EXPECT_TRUE(listed) << lobby.dump();
}

TEST_F(LobbyCreation, ThePairingsGameIsCreatedOffTheLobbyStrand) {
    WsClient ann(server_->port());
    WsClient bob(server_->port());
    WsClient carol(server_->port());
    ann.hello();
    bob.hello();
    carol.hello();
    const auto seek_id = make_seek(ann, "s");
    ASSERT_FALSE(seek_id.empty());

    store_->close("player");  // the players' names: the first read of a game's creation
    bob.send({{"type", "seek_accept"}, {"seek_id", seek_id}, {"id", "accept"}});
    ASSERT_TRUE(store_->wait_held(1)) << "the creation reads the players";

    // The lobby answers meanwhile, at once: another seek...
    const auto start = std::chrono::steady_clock::now();
    carol.send({{"type", "seek_create"}, {"variant", "chessence"}, {"id", "c"}});
    const auto created =
        carol.wait_for([](const json& m) { return m.value("id", json()) == "c"; }, 3000ms);
    EXPECT_EQ(created.value("type", ""), "seek_created") << created.dump();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 3s) << "not after the read";
    // ...and the seek being paired is nobody else's to accept, nor its creator's to cancel.
    carol.send({{"type", "seek_accept"}, {"seek_id", seek_id}, {"id", "twice"}});
    EXPECT_EQ(carol.wait_error("twice")["code"], "no_such_seek");
    ann.send({{"type", "seek_cancel"}, {"seek_id", seek_id}, {"id", "cancel"}});
    EXPECT_EQ(ann.wait_error("cancel")["code"], "no_such_seek");
    EXPECT_EQ(store_->held(), 1) << "the creation still waits";

    store_->open();
    const auto started = bob.wait_for([](const json& m) {
        return m.value("type", "") == "game_started" && m.value("id", json()) == "accept";
    });
    const std::string game_id = started.value("game_id", "");
    ASSERT_FALSE(game_id.empty()) << started.dump();
    EXPECT_EQ(ann.wait_type("game_started")["game_id"], game_id);
    ann.sync();
    bob.sync();
    carol.sync();
    EXPECT_EQ(ann.history_of("game_started").size(), 1u);
    EXPECT_EQ(bob.history_of("game_started").size(), 1u);
    EXPECT_TRUE(carol.history_of("game_started").empty());
    EXPECT_TRUE(test::eventually([&] {
        const auto seeks = server_->store().seeks().value();
        return seeks.size() == 1 && seeks[0].id != seek_id;  // carol's alone
    }));
}

TEST_F(LobbyCreation, AGameAgainstTheComputerIsCreatedOffTheLobbyStrand) {
    WsClient ann(server_->port());
    WsClient carol(server_->port());
    ann.hello();
    carol.hello();
    store_->close("player");
    ann.send({{"type", "seek_create"},
              {"variant", "chesica"},
              {"opponent", "computer"},
              {"level", 1},
              {"id", "bot"}});
    ASSERT_TRUE(store_->wait_held(1));
    carol.send({{"type", "seek_create"}, {"variant", "chessence"}, {"id", "c"}});
    const auto created =
        carol.wait_for([](const json& m) { return m.value("id", json()) == "c"; }, 3000ms);
    EXPECT_EQ(created.value("type", ""), "seek_created") << created.dump();

    store_->open();
    const auto started = ann.wait_for([](const json& m) {
        return m.value("type", "") == "game_started" && m.value("id", json()) == "bot";
    });
    EXPECT_FALSE(started.value("game_id", "").empty()) << started.dump();
    ann.sync();
    EXPECT_EQ(ann.history_of("game_started").size(), 1u);
}

// A client that keeps what it is sent (for a lobby driven without sockets).
class FramesKept final : public server::Client {
public:
    explicit FramesKept(std::uint64_t id) : id_(id) {}
    std::uint64_t client_id() const override { return id_; }
    void send(server::Frame frame) override {
        std::lock_guard lock(mutex_);
        frames_.push_back(json::parse(*frame));
    }
    void watching(const std::shared_ptr<server::Room>&, bool) override {}
    void close_after_queued(std::uint16_t) override {}
    std::vector<json> frames() {
        std::lock_guard lock(mutex_);
        return frames_;
    }
    // The answer to the request `id`, or null.
    json answer(const json& id) {
        for (const auto& frame : frames()) {
            if (frame.value("id", json()) == id) {
                return frame;
            }
        }
        return nullptr;
    }

private:
    std::uint64_t id_;
    std::mutex mutex_;
    std::vector<json> frames_;
};

TEST(LobbyCreationPoolFull, TheAccepterIsToldTheServerIsBusyAndTheSeekStaysOpen) {
    boost::asio::io_context io;
    test::GatedStore store;
    server::ServerState state(io, store, test::fast_limits(), "web-client");
    auto ann_client = std::make_shared<FramesKept>(1);
    auto bob_client = std::make_shared<FramesKept>(2);
    const auto actor = [](const std::shared_ptr<FramesKept>& client, std::string player_id) {
        server::Actor made;
        made.client = client;
        made.client_id = client->client_id();
        made.player_id = std::move(player_id);
        made.name = made.player_id;
        return made;
    };
    const auto ann = actor(ann_client, "p_ann");
    const auto bob = actor(bob_client, "p_bob");
    const auto run = [&] {
        io.restart();
        io.run_for(200ms);
    };

    protocol::Request create;
    create.type = protocol::RequestType::seek_create;
    create.variant = core::VariantId::chesica;
    create.id = "s";
    state.lobby().post_request(ann, create);
    run();
    const auto created = ann_client->answer("s");
    ASSERT_EQ(created.value("type", ""), "seek_created") << created.dump();
    const std::string seek_id = created["seek"]["seek_id"];

    state.blocking().stop();  // the pool takes no job: as when its queue is full
    protocol::Request accept;
    accept.type = protocol::RequestType::seek_accept;
    accept.seek_id = seek_id;
    accept.id = "a";
    state.lobby().post_request(bob, accept);
    run();
    const auto busy = bob_client->answer("a");
    EXPECT_EQ(busy.value("type", ""), "error") << busy.dump();
    EXPECT_EQ(busy.value("code", ""), "rate_limited");
    EXPECT_EQ(busy.value("message", ""), server::pool_busy_text);

    protocol::Request cancel;
    cancel.type = protocol::RequestType::seek_cancel;
    cancel.seek_id = seek_id;
    cancel.id = "c";
    state.lobby().post_request(ann, cancel);
    run();
    EXPECT_EQ(ann_client->answer("c").value("type", ""), "seek_cancelled")
        << "the seek stayed open";
}

}  // namespace
