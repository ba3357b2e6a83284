// The HTTP answers are computed on the blocking pool (issue 42): a store read that hangs while
// answering one request keeps the only I/O thread from no other connection.
#include "server/net/http_session.h"

#include <chrono>
#include <future>

#include <gtest/gtest.h>

#include "server/one_io_thread_server.h"
#include "server/test_support.h"

namespace {

using namespace std::chrono_literals;

// GET `target` on its own thread and connection.
std::future<test::HttpResult> get_later(std::uint16_t port, const std::string& target) {
    return std::async(std::launch::async, [port, target] { return test::http_get(port, target); });
}

TEST(HttpOnPool, AGameReadThatHangsDoesNotHoldHealthzOrOtherRequests) {
    test::OneIoThreadServer server(test::fast_limits());
    server.store().close("game");
    auto game = get_later(server.port(), "/api/games/g-waiting");
    ASSERT_TRUE(server.store().wait_held(1));
    auto health = get_later(server.port(), "/healthz");
    auto legal = get_later(server.port(), "/api/legal?variant=chessence");
    auto pgn = get_later(server.port(), "/api/games/g-waiting.pgn");
    const bool health_answered = health.wait_for(3s) == std::future_status::ready;
    const bool legal_answered = legal.wait_for(3s) == std::future_status::ready;
    const bool pgn_read = server.store().wait_held(2, 1s);  // a second read waits beside
    const bool game_answered = game.wait_for(0s) == std::future_status::ready;
    server.store().open();
    EXPECT_TRUE(health_answered) << "/healthz waited for another connection's store read";
    EXPECT_TRUE(legal_answered) << "/api/legal waited for another connection's store read";
    EXPECT_TRUE(pgn_read) << "a second export was not read while the first waited";
    EXPECT_FALSE(game_answered) << "the game was answered before its read";
    EXPECT_EQ(health.get().status, 200);
    EXPECT_NE(legal.get().status, 0);
    // Once the reads go on, the held requests are answered as before.
    EXPECT_EQ(game.get().status, 404);
    EXPECT_EQ(pgn.get().status, 404);
}

}  // namespace
