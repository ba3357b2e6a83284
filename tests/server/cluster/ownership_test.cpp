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

    // A game of Chessence started on `port` with three moves played.
    LiveGame start(Player& white, Player& black) {
        auto game = live_test::start_game(white, black, "chessence");
        EXPECT_FALSE(game.id.empty());
        for (std::size_t ply = 0; ply < 3 && !game.id.empty(); ++ply) {
            EXPECT_TRUE(game.play(ply * 5 + 1));
        }
        return game;
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
        mover.client->send(
            {{"type", "move"}, {"game_id", game.id}, {"move", move}, {"id", "m"}});
        auto answer = mover.client->next([&](const json& m) {
            return (m.value("type", "") == "event" && m.value("game_id", "") == game.id &&
                    m["event"].value("kind", "") == "move" &&
                    m.value("version", std::int64_t{0}) > game.last_acked_version) ||
                   (m.value("type", "") == "error" && m.value("id", json()) == "m");
        });
        return answer ? *answer : json();
    }

    storage_test::TempDir dir_;
    std::string db_;
    std::string redis_;
    std::string web_root_;
    std::string unique_ = std::to_string(::getpid());
};

TEST_F(ClusterOwnership, ANodeDoesNotLoadAGameAnotherNodeOwns) {
    auto a = node("a", 5000);
    auto b = node("b", 5000);
    ASSERT_NE(a->port(), 0) << read_log("a");
    ASSERT_NE(b->port(), 0) << read_log("b");
    Player walter;
    Player bella;
    connect(walter, a->port(), "Walter");
    connect(bella, a->port(), "Bella");
    auto game = start(walter, bella);
    ASSERT_EQ(game.acked_moves.size(), 3u);

    // On node B, a spectator and the player to move (with its token) are sent on their way.
    Player sam;
    connect(sam, b->port(), "Sam");
    const auto refused = watch(sam, game.id);
    EXPECT_EQ(refused.value("type", ""), "error") << refused.dump();
    EXPECT_EQ(refused.value("code", ""), "server_restarting") << refused.dump();
    Player& mover = game.mover();
    Player on_b;
    on_b.token = mover.token;
    connect(on_b, b->port(), "Mover");
    EXPECT_EQ(on_b.id, mover.id);
    const auto move = try_move(on_b, game, 0);
    EXPECT_EQ(move.value("code", ""), "server_restarting") << move.dump();

    // The game goes on at its owner, which B never disturbed.
    ASSERT_TRUE(game.play(2));
    EXPECT_EQ(game.last_acked_version, watch(walter, game.id).value("version", std::int64_t{0}));
}

TEST_F(ClusterOwnership, AnOwnerPausedPastItsLeaseCommitsNothingAfterATakeover) {
    auto a = node("a", 1000);
    auto b = node("b", 1000);
    ASSERT_NE(a->port(), 0) << read_log("a");
    ASSERT_NE(b->port(), 0) << read_log("b");
    Player walter;
    Player bella;
    connect(walter, a->port(), "Walter");
    connect(bella, a->port(), "Bella");
    auto game = start(walter, bella);
    ASSERT_EQ(game.acked_moves.size(), 3u);

    a->signal(SIGSTOP);
    std::this_thread::sleep_for(1500ms);  // past A's lease
    Player white_b;
    Player black_b;
    white_b.token = walter.token;
    black_b.token = bella.token;
    connect(white_b, b->port(), "Walter");
    connect(black_b, b->port(), "Bella");
    const auto taken = watch(white_b, game.id);
    ASSERT_EQ(taken.value("type", ""), "snapshot") << taken.dump();
    EXPECT_EQ(taken["moves"].get<std::vector<std::string>>(), game.acked_moves);
    ASSERT_EQ(watch(black_b, game.id).value("type", ""), "snapshot");
    LiveGame on_b = game;
    on_b.white = &white_b;
    on_b.black = &black_b;
    ASSERT_TRUE(on_b.play(4)) << "the game goes on at its new owner";

    // A wakes up still holding its players' connections: what they send is refused.
    a->signal(SIGCONT);
    const auto stale = try_move(game.mover(), game, 1);
    EXPECT_EQ(stale.value("code", ""), "server_restarting") << stale.dump();
    std::this_thread::sleep_for(300ms);
    const auto now = watch(white_b, game.id);
    ASSERT_EQ(now.value("type", ""), "snapshot") << now.dump();
    EXPECT_EQ(now["moves"].get<std::vector<std::string>>(), on_b.acked_moves)
        << "the stale node committed nothing";
}

TEST_F(ClusterOwnership, AStaleOwnersCommitIsFencedOff) {
    // A's lease is long, so A still believes in it when it wakes: only the fence stops it.
    auto a = node("a", 120000);
    auto b = node("b", 120000);
    ASSERT_NE(a->port(), 0) << read_log("a");
    ASSERT_NE(b->port(), 0) << read_log("b");
    Player walter;
    Player bella;
    connect(walter, a->port(), "Walter");
    connect(bella, a->port(), "Bella");
    auto game = start(walter, bella);
    ASSERT_EQ(game.acked_moves.size(), 3u);

    a->signal(SIGSTOP);
    // The lease vanishes behind A's back (as if it had expired and A's clock had not noticed).
    auto url = server::cluster::parse_redis_url(redis_);
    ASSERT_TRUE(url.ok()) << url.error();
    auto redis = server::cluster::RedisConnection::open(*url, 2000ms);
    ASSERT_TRUE(redis.ok()) << redis.error();
    auto deleted = (*redis)->command({"DEL", "chessence:lease:" + game.id});
    ASSERT_TRUE(deleted.ok()) << deleted.error();
    EXPECT_EQ(deleted->integer, 1) << "A held the game's lease";

    Player white_b;
    Player black_b;
    white_b.token = walter.token;
    black_b.token = bella.token;
    connect(white_b, b->port(), "Walter");
    connect(black_b, b->port(), "Bella");
    ASSERT_EQ(watch(white_b, game.id).value("type", ""), "snapshot");
    ASSERT_EQ(watch(black_b, game.id).value("type", ""), "snapshot");
    LiveGame on_b = game;
    on_b.white = &white_b;
    on_b.black = &black_b;
    ASSERT_TRUE(on_b.play(4));

    a->signal(SIGCONT);
    const auto stale = try_move(game.mover(), game, 1);
    EXPECT_EQ(stale.value("code", ""), "server_restarting") << stale.dump();
    EXPECT_NE(read_log("a").find("fenced: "), std::string::npos)
        << "A's batch was refused by the store's fence:\n"
        << read_log("a");
    const auto now = watch(white_b, game.id);
    ASSERT_EQ(now.value("type", ""), "snapshot") << now.dump();
    EXPECT_EQ(now["moves"].get<std::vector<std::string>>(), on_b.acked_moves);
    ASSERT_TRUE(on_b.play(2)) << "B goes on undisturbed";
}

}  // namespace
