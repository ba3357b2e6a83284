#pragma once
// Real chessence-server nodes in cluster mode for the cluster tests (issue 27): a fresh
// PostgreSQL schema, the tests' Redis, a web root and one log per node, and the players' moves
// and watches over their WebSocket connections.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "server/cluster/redis_client.h"
#include "server/cluster/test_redis.h"
#include "server/live_game.h"
#include "server/live_server.h"
#include "server/storage_test_util.h"
#include "server/store/store_kinds.h"

namespace cluster_test {

using live_test::Client;
using live_test::json;
using live_test::LiveGame;
using live_test::Player;
using live_test::ServerProcess;

class ClusterNodes : public ::testing::Test {
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
        ASSERT_NO_FATAL_FAILURE(clear_address_counts());
    }

    // The tests share one Redis and one address (127.0.0.1): each starts without the counts per
    // address the nodes of the tests before it kept there (new guests, chat lines, logins), so
    // that how many tests ran before cannot exhaust a limit.
    void clear_address_counts() {
        auto url = server::cluster::parse_redis_url(redis_);
        ASSERT_TRUE(url.ok()) << url.error();
        auto redis = server::cluster::RedisConnection::open(*url, std::chrono::milliseconds(2000));
        ASSERT_TRUE(redis.ok()) << redis.error();
        auto keys = (*redis)->command({"KEYS", "chessence:limit:*"});
        ASSERT_TRUE(keys.ok()) << keys.error();
        for (const auto& key : keys->elements) {
            auto deleted = (*redis)->command({"DEL", key.text});
            ASSERT_TRUE(deleted.ok()) << deleted.error();
        }
    }

    // A failed test shows what each node logged last (the logs go with the temporary folder).
    void TearDown() override {
        if (!HasFailure()) {
            return;
        }
        for (const auto& entry : std::filesystem::directory_iterator(dir_.path())) {
            if (entry.path().extension() != ".log") {
                continue;
            }
            std::ifstream in(entry.path());
            std::deque<std::string> tail;
            for (std::string line; std::getline(in, line);) {
                tail.push_back(std::move(line));
                if (tail.size() > 40) {
                    tail.pop_front();
                }
            }
            std::cerr << "--- " << entry.path().filename().string() << ", last lines:\n";
            for (const auto& line : tail) {
                std::cerr << line << '\n';
            }
        }
    }

    // A node named `name` (its id is unique to this run) with leases of `lease_ms`, and `more`
    // flags.
    std::unique_ptr<ServerProcess> node(const std::string& name, int lease_ms,
                                        const std::vector<std::string>& more = {}) {
        std::vector<std::string> args{"--redis",    redis_,
                                      "--node-id",  name + "-" + unique_,
                                      "--lease-ms", std::to_string(lease_ms)};
        args.insert(args.end(), more.begin(), more.end());
        return std::make_unique<ServerProcess>(db_, web_root_, log_of(name), std::move(args));
    }
    std::string log_of(const std::string& name) const { return dir_.file(name + ".log"); }
    std::string read_log(const std::string& name) const {
        std::ifstream in(log_of(name));
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

    // The player says hello on `port` (with its token, if it has one).
    static void connect(Player& player, unsigned short port, const std::string& name) {
        player.client = std::make_unique<Client>(port);
        live_test::hello(player, name);
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

    // The mover sends a move on its connection: the acknowledged event, the `ack` (a connection
    // that does not watch the game gets only that), or the error.
    static json try_move(Player& mover, const LiveGame& game, std::size_t pick) {
        const auto move = game.legal[pick % game.legal.size()].get<std::string>();
        mover.client->send({{"type", "move"}, {"game_id", game.id}, {"move", move}, {"id", "m"}});
        auto answer = mover.client->next([&](const json& m) {
            return (m.value("type", "") == "event" && m.value("game_id", "") == game.id &&
                    m["event"].value("kind", "") == "move" &&
                    m.value("version", std::int64_t{0}) > game.last_acked_version) ||
                   ((m.value("type", "") == "error" || m.value("type", "") == "ack") &&
                    m.value("id", json()) == "m");
        });
        return answer ? *answer : json();
    }

    storage_test::TempDir dir_;
    std::string db_;
    std::string redis_;
    std::string web_root_;
    // Node ids differ between the tests of one run too (a killed node's leases outlive it).
    std::string unique_ = std::to_string(::getpid()) + "-" + std::to_string(++test_count());

private:
    static int& test_count() {
        static int count = 0;
        return count;
    }
};

}  // namespace cluster_test
