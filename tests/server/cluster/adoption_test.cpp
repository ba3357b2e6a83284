// Issue 42, finding 4, cluster mode: a node that dies while nobody watches its games leaves them
// to the live nodes, which adopt them (room_adoption.h) with nobody asking, so a flag falls on
// time; a node unfit to hold games adopts none.
#include "server/game/room_adoption.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "server/cluster/cluster_nodes.h"
#include "server/cluster/leases.h"
#include "server/cluster/redis_client.h"
#include "server/game/room.h"
#include "server/game/room_directory.h"
#include "server/game/server_state.h"
#include "server/store/open_store.h"

namespace {

using live_test::json;
using live_test::LiveGame;
using live_test::Player;
using live_test::ServerProcess;
using namespace std::chrono_literals;

class ClusterAdoption : public cluster_test::ClusterNodes {
protected:
    // Node A with leases of 1 s; Walter and Bella play their first moves of a 3+1 game there, so
    // White's clock runs; then A dies without a word (SIGKILL: its leases run out by themselves).
    void orphan_a_game() {
        a_ = node("a", 1000);
        ASSERT_NE(a_->port(), 0) << read_log("a");
        connect(walter_, a_->port(), "Walter");
        connect(bella_, a_->port(), "Bella");
        game_ = live_test::start_game(walter_, bella_, "chessence",
                                      json{{"initial", 3}, {"increment", 1}});
        ASSERT_FALSE(game_.id.empty());
        for (std::size_t ply = 0; ply < 2; ++ply) {
            ASSERT_TRUE(game_.play(ply * 3 + 1));
        }
        a_->kill_now();
        walter_.client.reset();
        bella_.client.reset();
    }

    // The lease of the game as Redis holds it ("" when there is none).
    std::string lease_of_game() {
        auto url = server::cluster::parse_redis_url(redis_);
        EXPECT_TRUE(url.ok()) << url.error();
        auto redis = server::cluster::RedisConnection::open(*url, 2000ms);
        EXPECT_TRUE(redis.ok()) << redis.error();
        if (!redis) {
            return "?";
        }
        auto lease = (*redis)->command({"GET", "chessence:lease:" + game_.id});
        EXPECT_TRUE(lease.ok()) << lease.error();
        return lease.ok() ? lease->text : "?";
    }

    std::unique_ptr<ServerProcess> a_;
    Player walter_;
    Player bella_;
    LiveGame game_;
};

TEST_F(ClusterAdoption, ALiveNodeAdoptsADeadNodesGameAndItsFlagFallsWithNobodyAsking) {
    auto b = node("b", 1000);
    ASSERT_NE(b->port(), 0) << read_log("b");
    ASSERT_NO_FATAL_FAILURE(orphan_a_game());
    const auto killed = std::chrono::steady_clock::now();

    // Nobody asks B about the game; B's HTTP API reads the store, loading no room.
    json game;
    while (std::chrono::steady_clock::now() < killed + 10s) {
        const auto [status, body] = live_test::http_get(b->port(), "/api/games/" + game_.id);
        ASSERT_EQ(status, 200) << body;
        game = json::parse(body);
        if (game.value("status", "") == "finished") {
            break;
        }
        std::this_thread::sleep_for(100ms);
    }
    const auto ended = std::chrono::steady_clock::now() - killed;
    ASSERT_EQ(game.value("status", ""), "finished") << "the dead node's game ended on time:\n"
                                                    << read_log("b");
    EXPECT_EQ(game["result"].value("reason", ""), "timeout") << game.dump();
    EXPECT_EQ(game["result"].value("winner", ""), "black") << game.dump();
    // White had about 3 s at the kill: the lease (1 s) runs out, a sweep (within a lease) finds
    // the game, and White's time is not charged for the time the game had no owner.
    EXPECT_GE(ended, 2500ms) << "White's flag fell before its time was up";
    EXPECT_NE(read_log("b").find("game " + game_.id + ": adopted"), std::string::npos)
        << read_log("b");
}

TEST_F(ClusterAdoption, ANodeUnfitToHoldGamesAdoptsNone) {
    ASSERT_NO_FATAL_FAILURE(orphan_a_game());
    // Node B in this process, so that its sweep is called by hand: nothing else takes the game.
    boost::asio::io_context io;
    auto store = server::open_store(db_);
    ASSERT_TRUE(store.ok()) << store.error();
    auto state = std::make_unique<server::ServerState>(io, **store, server::Limits{}, web_root_);
    ASSERT_TRUE(state->join_cluster(redis_, "b-" + unique_, 1000ms).ok());
    std::this_thread::sleep_for(1500ms);  // past A's lease
    ASSERT_EQ(lease_of_game(), "") << "A's lease ran out";

    server::RoomAdoption::Options unfit;
    unfit.healthy = [] { return core::make_error("its store's writer hangs"); };
    const auto refused = server::RoomAdoption::make(*state, unfit)->sweep();
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("writer hangs"), std::string::npos) << refused.error();
    EXPECT_EQ(lease_of_game(), "") << "the unfit node took no lease";
    EXPECT_EQ(state->rooms().loaded(game_.id), nullptr) << "nor loaded the game";

    // The same node, fit (the rule its leases are renewed by), adopts it.
    server::RoomAdoption::Options fit;
    fit.healthy = [&] { return state->fit_to_own_games(1000ms); };
    const auto adopted = server::RoomAdoption::make(*state, fit)->sweep();
    ASSERT_TRUE(adopted.ok()) << adopted.error();
    EXPECT_EQ(*adopted, std::vector<std::string>{game_.id});
    EXPECT_EQ(lease_of_game().rfind("b-" + unique_ + "|", 0), 0u) << lease_of_game();
    EXPECT_NE(state->rooms().loaded(game_.id), nullptr);

    // The adopted room's posted work runs before the state goes (it holds the room).
    io.restart();
    io.poll();
}

}  // namespace
