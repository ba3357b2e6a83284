// Issue 42, cluster analyses: real nodes on one PostgreSQL and one Redis. An analysis asked for on
// two nodes at once is claimed once in the store and run by one node, while the other shows its
// progress; a node killed while it runs one takes it over again when it comes back.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "server/cluster/cluster_nodes.h"

namespace {

using live_test::json;
using live_test::Player;
using live_test::ServerProcess;
using namespace std::chrono_literals;
namespace http = boost::beast::http;

class ClusterAnalyses : public cluster_test::ClusterNodes {
protected:
    void start_nodes(int count) {
        for (int i = 0; i < count; ++i) {
            const std::string name(1, static_cast<char>('a' + i));
            nodes_.push_back(node(name, 5000));
            ASSERT_NE(nodes_.back()->port(), 0) << read_log(name);
        }
    }
    unsigned short port(char node) const { return nodes_[node - 'a']->port(); }

    // Alice and Bob play four plies of Chessence on node A, then Bob resigns: the game's id.
    std::string finished_game() {
        connect(alice_, port('a'), "Alice");
        connect(bob_, port('a'), "Bob");
        auto game = live_test::start_game(alice_, bob_, "chessence");
        for (std::size_t ply = 0; ply < 4; ++ply) {
            EXPECT_TRUE(game.play(ply * 5 + 2)) << "ply " << ply;
        }
        bob_.client->send({{"type", "resign"}, {"game_id", game.id}});
        const auto over = alice_.client->next([&](const json& m) {
            return m.value("type", "") == "event" && m["event"].value("kind", "") == "game_over";
        });
        EXPECT_TRUE(over.has_value());
        return game.id;
    }

    static std::string path(const std::string& game_id) {
        return "/api/games/" + game_id + "/analysis";
    }
    std::pair<int, json> ask(char node, const std::string& game_id, http::verb method) const {
        const auto [status, body] = live_test::http_get(port(node), path(game_id), method);
        return {status, json::parse(body, nullptr, false)};
    }
    // GET on `node` until the analysis is done (at most a minute): whether it was.
    bool done_on(char node, const std::string& game_id) const {
        const auto deadline = std::chrono::steady_clock::now() + 60s;
        while (std::chrono::steady_clock::now() < deadline) {
            const auto [status, body] = ask(node, game_id, http::verb::get);
            if (status == 200 && body.is_object() && body.value("status", "") == "done") {
                return true;
            }
            std::this_thread::sleep_for(200ms);
        }
        return false;
    }
    // How many times `name`'s log says it analysed `game_id`.
    int analysed_by(const std::string& name, const std::string& game_id) const {
        const auto log = read_log(name);
        const auto line = "game " + game_id + ": analysed";
        int count = 0;
        for (auto at = log.find(line); at != std::string::npos; at = log.find(line, at + 1)) {
            ++count;
        }
        return count;
    }

    std::vector<std::unique_ptr<ServerProcess>> nodes_;
    Player alice_;
    Player bob_;
};

TEST_F(ClusterAnalyses, AskedOnTwoNodesAtOnceItRunsOnceAndEveryNodeShowsIt) {
    ASSERT_NO_FATAL_FAILURE(start_nodes(2));
    const auto game_id = finished_game();
    ASSERT_FALSE(game_id.empty());
    auto on_a = std::async(std::launch::async, [&] { return ask('a', game_id, http::verb::post); });
    auto on_b = std::async(std::launch::async, [&] { return ask('b', game_id, http::verb::post); });
    const auto [a_status, a_body] = on_a.get();
    const auto [b_status, b_body] = on_b.get();
    EXPECT_TRUE(a_status == 202 || a_status == 200) << a_status << " " << a_body.dump();
    EXPECT_TRUE(b_status == 202 || b_status == 200) << b_status << " " << b_body.dump();
    // Whichever node runs it, the other answers from its claim: never "not analysed".
    for (const char node : {'a', 'b'}) {
        const auto [status, body] = ask(node, game_id, http::verb::get);
        EXPECT_EQ(status, 200) << node << ": " << body.dump();
        if (body.is_object() && body.value("status", "") != "done") {
            EXPECT_TRUE(body["positions"].value("total", 0) > 0) << node << ": " << body.dump();
        }
    }
    ASSERT_TRUE(done_on('b', game_id));
    ASSERT_TRUE(done_on('a', game_id));
    EXPECT_EQ(analysed_by("a", game_id) + analysed_by("b", game_id), 1) << "one node ran it, once";
}

TEST_F(ClusterAnalyses, ANodeKilledWhileItRunsOneTakesItOverWhenItComesBack) {
    ASSERT_NO_FATAL_FAILURE(start_nodes(2));
    const auto game_id = finished_game();
    ASSERT_FALSE(game_id.empty());
    ASSERT_EQ(ask('a', game_id, http::verb::post).first, 202);
    nodes_[0]->kill_now();
    // B sees A's claim (A is not known dead yet), and runs nothing of its own.
    const auto [status, body] = ask('b', game_id, http::verb::get);
    EXPECT_EQ(status, 200) << body.dump();
    EXPECT_NE(body.value("status", ""), "done") << body.dump();
    nodes_[0] = node("a", 5000);  // the same node again: its earlier run's claim is dead
    ASSERT_NE(port('a'), 0) << read_log("a");
    ASSERT_TRUE(done_on('b', game_id));
    EXPECT_EQ(analysed_by("b", game_id), 0);
    EXPECT_EQ(analysed_by("a", game_id), 1);
}

}  // namespace
