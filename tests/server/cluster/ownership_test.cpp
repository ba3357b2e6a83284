// Issue 27, cluster mode: real chessence-server nodes on one PostgreSQL database and one Redis.
// A room is owned by one node at a time through its lease; another node does not load it; a node
// paused past its lease finds the game taken over and commits nothing into it; and a stale owner
// that still believes in its lease is fenced off by the store.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "server/cluster/redis_client.h"
#include "server/cluster/test_redis.h"
#include "server/live_game.h"
#include "server/live_server.h"
#include "server/storage_test_util.h"
#include "server/store/store_kinds.h"

namespace {

using live_test::Client;
using live_test::json;
using live_test::LiveGame;
using live_test::Player;
using live_test::ServerProcess;
using namespace std::chrono_literals;

// Two nodes' worth of setup: a fresh PostgreSQL schema, the tests' Redis, a web root and logs.
class ClusterOwnership : public ::testing::Test {
protected:
    void SetUp() override {
        auto uri = test::fresh_postgres_uri();
        ASSERT_TRUE(uri.ok()) << uri.error();
        db_ = *uri;
        auto redis = test::test_redis_url();
        ASSERT_TRUE(redis.ok()) << redis.error();
        redis_ = *redis;
        web_root_ = dir_.file("web");
        std::filesystem::create_directories(web_root_);
    }

    std::unique_ptr<ServerProcess> node(const std::string& name, int lease_ms) {
        return std::make_unique<ServerProcess>(
            db_, web_root_, log_of(name),
            std::vector<std::string>{"--redis", redis_, "--node-id", name + "-" + unique_,
                                     "--lease-ms", std::to_string(lease_ms)});
    }
    std::string log_of(const std::string& name) const { return dir_.file(name + ".log"); }
    std::string read_log(const std::string& name) const {
        std::ifstream in(log_of(name));
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

    // Both players say hello on `port` (again, with their tokens, after the first time).
    static void connect(Player& player, unsigned short port, const std::string& name) {
        player.client = std::make_unique<Client>(port);
        live_test::hello(player, name);
    }

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

    // `player` watches the game on its connection: the snapshot, or the error it got.
    static json watch(Player& player, const std::string& game_id) {
        player.client->send({{"type", "watch"}, {"game_id", game_id}, {"id", "w"}});
        auto answer = player.client->next([&](const json& m) {
            return (m.value("type", "") == "snapshot" || m.value("type", "") == "error") &&
                   m.value("game_id", "") == game_id;
        });
        return answer ? *answer : json();
    }

    // The mover sends a move on its connection: the acknowledged event or the error.
    static json try_move(Player& mover, const LiveGame& game, std::size_t pick) {
        const auto move = game.legal[pick % game.legal.size()].get<std::string>();
        mover.client->send({{"type", "move"}, {"game_id", game.id}, {"move", move}, {"id", "m"}});
        auto answer = mover.client->next([&](const json& m) {
            return (m.value("type", "") == "event" && m.value("game_id", "") == game.id &&
                    m["event"].value("kind", "") == "move" &&
                    m.value("version", std::int64_t{0}) > game.last_acked_version) ||
                   (m.value("type", "") == "error" && m.value("id", json()) == "m");
        });
        return answer ? *answer : json();
    }

    std::unique_ptr<ServerProcess> a_;
    std::unique_ptr<ServerProcess> b_;
    Player walter_;
    Player bella_;
    LiveGame game_;
    storage_test::TempDir dir_;
    std::string db_;
    std::string redis_;
    std::string web_root_;
    std::string unique_ = std::to_string(::getpid());
};

TEST_F(ClusterOwnership, ANodeDoesNotLoadAGameAnotherNodeOwns) {
    ASSERT_NO_FATAL_FAILURE(start_on_a(5000));

    // On node B, a spectator and the player to move (with its token) are sent on their way.
    Player sam;
    connect(sam, b_->port(), "Sam");
    const auto refused = watch(sam, game_.id);
    EXPECT_EQ(refused.value("type", ""), "error") << refused.dump();
    EXPECT_EQ(refused.value("code", ""), "server_restarting") << refused.dump();
    Player& mover = game_.mover();
    Player on_b;
    on_b.token = mover.token;
    connect(on_b, b_->port(), "Mover");
    EXPECT_EQ(on_b.id, mover.id);
    const auto move = try_move(on_b, game_, 0);
    EXPECT_EQ(move.value("code", ""), "server_restarting") << move.dump();

    // The game goes on at its owner, which B never disturbed.
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

    // A wakes up still holding its players' connections: what they send is refused.
    a_->signal(SIGCONT);
    const auto stale = try_move(game_.mover(), game_, 1);
    EXPECT_EQ(stale.value("code", ""), "server_restarting") << stale.dump();
    expect_moves_at_b(white_b, on_b.acked_moves);
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

}  // namespace
