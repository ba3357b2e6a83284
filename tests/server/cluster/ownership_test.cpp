// Issue 27, cluster mode: real chessence-server nodes on one PostgreSQL database and one Redis.
// A room is owned by one node at a time through its lease; another node relays to it and does
// not load it; a node paused past its lease finds the game taken over and commits nothing into
// it; and a stale owner that still believes in its lease is fenced off by the store.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "server/cluster/cluster_nodes.h"
#include "server/cluster/redis_client.h"

namespace {

using live_test::json;
using live_test::LiveGame;
using live_test::Player;
using live_test::ServerProcess;
using namespace std::chrono_literals;

// Nodes A and B, and a game Walter and Bella began on A.
class ClusterOwnership : public cluster_test::ClusterNodes {
protected:
    // Nodes A and B with leases of `lease_ms`; Walter and Bella on A play three moves of a game of
    // Chessence (game_).
    void start_on_a(int lease_ms) {
        a_ = node("a", lease_ms);
        b_ = node("b", lease_ms);
        ASSERT_NE(a_->port(), 0) << read_log("a");
        ASSERT_NE(b_->port(), 0) << read_log("b");
        connect(walter_, a_->port(), "Walter");
        connect(bella_, a_->port(), "Bella");
        game_ = live_test::start_game(walter_, bella_, "chessence");
        ASSERT_FALSE(game_.id.empty());
        for (std::size_t ply = 0; ply < 3; ++ply) {
            ASSERT_TRUE(game_.play(ply * 5 + 1));
        }
    }

    // Walter and Bella connect to B with their tokens and watch the game there: the game as B
    // shows it (B takes it over), with its snapshot's moves checked against what A acknowledged.
    LiveGame watch_on_b(Player& white_b, Player& black_b) {
        white_b.token = walter_.token;
        black_b.token = bella_.token;
        connect(white_b, b_->port(), "Walter");
        connect(black_b, b_->port(), "Bella");
        const auto taken = watch(white_b, game_.id);
        EXPECT_EQ(taken.value("type", ""), "snapshot") << taken.dump();
        if (taken.contains("moves")) {
            EXPECT_EQ(taken["moves"].get<std::vector<std::string>>(), game_.acked_moves);
        }
        EXPECT_EQ(watch(black_b, game_.id).value("type", ""), "snapshot");
        LiveGame on_b = game_;
        on_b.white = &white_b;
        on_b.black = &black_b;
        return on_b;
    }

    // After A's stale attempt: B's record of the game holds exactly `moves`.
    void expect_moves_at_b(Player& watcher, const std::vector<std::string>& moves) {
        const auto now = watch(watcher, game_.id);
        ASSERT_EQ(now.value("type", ""), "snapshot") << now.dump();
        EXPECT_EQ(now["moves"].get<std::vector<std::string>>(), moves)
            << "the stale node committed nothing";
    }

    std::unique_ptr<ServerProcess> a_;
    std::unique_ptr<ServerProcess> b_;
    Player walter_;
    Player bella_;
    LiveGame game_;
};

TEST_F(ClusterOwnership, ANodeRelaysAGameAnotherNodeOwnsAndLoadsItNot) {
    ASSERT_NO_FATAL_FAILURE(start_on_a(5000));

    // On node B, a spectator watches the game through A (the relay) ...
    Player sam;
    connect(sam, b_->port(), "Sam");
    const auto seen = watch(sam, game_.id);
    ASSERT_EQ(seen.value("type", ""), "snapshot") << seen.dump();
    EXPECT_EQ(seen.value("id", json()), "w") << "the request id comes back";
    EXPECT_EQ(seen.value("version", std::int64_t{0}), game_.last_acked_version);
    EXPECT_EQ(seen["moves"].get<std::vector<std::string>>(), game_.acked_moves);

    // ... and the player to move (with its token) plays there: refused with its id when illegal,
    // applied at A when legal.
    Player& mover = game_.mover();
    Player on_b;
    on_b.token = mover.token;
    connect(on_b, b_->port(), "Mover");
    EXPECT_EQ(on_b.id, mover.id);
    ASSERT_EQ(watch(on_b, game_.id).value("type", ""), "snapshot");
    on_b.client->send({{"type", "move"}, {"game_id", game_.id}, {"move", "a1-a1"}, {"id", "bad"}});
    const auto refused = on_b.client->next_of("error");
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->value("id", json()), "bad") << refused->dump();
    EXPECT_EQ(refused->value("code", ""), "illegal_move") << refused->dump();
    LiveGame relayed = game_;
    (game_.to_move == "white" ? relayed.white : relayed.black) = &on_b;
    ASSERT_TRUE(relayed.play(0)) << "a move relayed to the owner";
    const auto at_sam = sam.client->next_of("event", "move");
    ASSERT_TRUE(at_sam.has_value());
    EXPECT_EQ(at_sam->value("version", std::int64_t{0}), relayed.last_acked_version);

    // The game stays A's: its lease names A, and it goes on there.
    auto url = server::cluster::parse_redis_url(redis_);
    ASSERT_TRUE(url.ok()) << url.error();
    auto redis = server::cluster::RedisConnection::open(*url, 2000ms);
    ASSERT_TRUE(redis.ok()) << redis.error();
    auto lease = (*redis)->command({"GET", "chessence:lease:" + game_.id});
    ASSERT_TRUE(lease.ok()) << lease.error();
    EXPECT_EQ(lease->text.rfind("a-" + unique_ + "|", 0), 0u) << lease->text;
    game_.legal = relayed.legal;
    game_.to_move = relayed.to_move;
    game_.acked_moves = relayed.acked_moves;
    game_.last_acked_version = relayed.last_acked_version;
    ASSERT_TRUE(game_.play(2));
    EXPECT_EQ(game_.last_acked_version, watch(walter_, game_.id).value("version", std::int64_t{0}));
}

TEST_F(ClusterOwnership, AnOwnerPausedPastItsLeaseCommitsNothingAfterATakeover) {
    ASSERT_NO_FATAL_FAILURE(start_on_a(1000));
    a_->signal(SIGSTOP);
    std::this_thread::sleep_for(1500ms);  // past A's lease
    Player white_b;
    Player black_b;
    auto on_b = watch_on_b(white_b, black_b);
    ASSERT_TRUE(on_b.play(4)) << "the game goes on at its new owner";

    // A wakes up still holding its players' connections: A commits nothing of what they send;
    // it refuses it (its room noticed the lost lease) or relays it to B, the owner now.
    a_->signal(SIGCONT);
    LiveGame stale_game = on_b;
    stale_game.white = game_.white;
    stale_game.black = game_.black;
    const auto stale = try_move(stale_game.mover(), stale_game, 1);
    ASSERT_FALSE(stale.is_null()) << "the stale node's player got no answer";
    auto moves = on_b.acked_moves;
    if (stale.value("type", "") == "event" || stale.value("type", "") == "ack") {
        moves.push_back(stale_game.legal[1 % stale_game.legal.size()].get<std::string>());
    } else {
        EXPECT_EQ(stale.value("code", ""), "server_restarting") << stale.dump();
    }
    expect_moves_at_b(white_b, moves);
}

TEST_F(ClusterOwnership, AStaleOwnersCommitIsFencedOff) {
    // A's lease is long, so A still believes in it when it wakes: only the fence stops it.
    ASSERT_NO_FATAL_FAILURE(start_on_a(120000));
    a_->signal(SIGSTOP);
    // The lease vanishes behind A's back (as if it had expired and A's clock had not noticed).
    auto url = server::cluster::parse_redis_url(redis_);
    ASSERT_TRUE(url.ok()) << url.error();
    auto redis = server::cluster::RedisConnection::open(*url, 2000ms);
    ASSERT_TRUE(redis.ok()) << redis.error();
    auto deleted = (*redis)->command({"DEL", "chessence:lease:" + game_.id});
    ASSERT_TRUE(deleted.ok()) << deleted.error();
    EXPECT_EQ(deleted->integer, 1) << "A held the game's lease";

    Player white_b;
    Player black_b;
    auto on_b = watch_on_b(white_b, black_b);
    ASSERT_TRUE(on_b.play(4));

    a_->signal(SIGCONT);
    const auto stale = try_move(game_.mover(), game_, 1);
    ASSERT_FALSE(stale.is_null()) << "the stale node's player got no answer";
    EXPECT_EQ(stale.value("code", ""), "server_restarting") << stale.dump();
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (read_log("a").find("fenced: ") == std::string::npos &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(20ms);
    }
    EXPECT_NE(read_log("a").find("fenced: "), std::string::npos)
        << "A's batch was refused by the store's fence:\n"
        << read_log("a");
    expect_moves_at_b(white_b, on_b.acked_moves);
    ASSERT_TRUE(on_b.play(2)) << "B goes on undisturbed";
}

TEST_F(ClusterOwnership, AStrangersRequestsForAFinishedGameTakeNoLease) {
    ASSERT_NO_FATAL_FAILURE(start_on_a(5000));
    walter_.client->send({{"type", "resign"}, {"game_id", game_.id}, {"id", "r"}});
    ASSERT_TRUE(walter_.client->next([](const json& m) { return m.value("id", json()) == "r"; }));
    auto url = server::cluster::parse_redis_url(redis_);
    ASSERT_TRUE(url.ok()) << url.error();
    auto redis = server::cluster::RedisConnection::open(*url, 2000ms);
    ASSERT_TRUE(redis.ok()) << redis.error();
    const auto leased = [&] {
        auto lease = (*redis)->command({"GET", "chessence:lease:" + game_.id});
        EXPECT_TRUE(lease.ok()) << lease.error();
        return !lease.ok() || lease->kind != server::cluster::RedisReply::Kind::nil;
    };
    const auto rooms_on = [](ServerProcess& node) {
        const auto [status, body] = live_test::http_get(node.port(), "/metrics");
        EXPECT_EQ(status, 200);
        const std::string series = "chessence_rooms_in_memory ";
        const auto at = body.find("\n" + series);
        return at == std::string::npos ? -1 : std::stoi(body.substr(at + 1 + series.size()));
    };
    EXPECT_TRUE(leased()) << "A holds the lease while its players watch the finished game";

    // The players leave: A's finished room goes, and its lease with it.
    walter_.client.reset();
    bella_.client.reset();
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (leased() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(20ms);
    }
    ASSERT_FALSE(leased()) << "the released room gave its lease back";

    // A stranger on B, then on A, asks about the game: answered from the store, no lease taken,
    // no room loaded.
    Player stranger;
    for (auto* on : {b_.get(), a_.get()}) {
        connect(stranger, on->port(), "Sam");
        stranger.client->send({{"type", "draw_offer"}, {"game_id", game_.id}, {"id", "d"}});
        const auto refused =
            stranger.client->next([](const json& m) { return m.value("id", json()) == "d"; });
        ASSERT_TRUE(refused.has_value());
        EXPECT_EQ(refused->value("code", ""), "not_a_player") << refused->dump();
        EXPECT_EQ(refused->value("game_id", ""), game_.id);
        const auto seen = watch(stranger, game_.id);
        ASSERT_EQ(seen.value("type", ""), "snapshot") << seen.dump();
        EXPECT_EQ(seen["moves"].get<std::vector<std::string>>(), game_.acked_moves);
        EXPECT_EQ(seen["result"].value("reason", ""), "resignation");
        EXPECT_FALSE(leased()) << "no node took the finished game's lease";
        EXPECT_EQ(rooms_on(*on), 0) << "no room in memory";
    }
}

}  // namespace
