// HTTP on a real socket: health, static files from the web root (and every way out refused), and
// the JSON API over the store.
#include "server/net/http_session.h"

#include <gtest/gtest.h>

#include "server/log_capture.h"
#include "server/test_stores.h"
#include "server/test_support.h"
#include "server/throwing_store.h"

namespace {

using test::http_get;
using test::json;

class Http : public ::testing::Test {
protected:
    test::TestServer server_;
};

TEST_F(Http, HealthzSaysOk) {
    const auto res = http_get(server_.port(), "/healthz");
    EXPECT_EQ(res.status, 200);
    EXPECT_EQ(res.content_type, "application/json");
    EXPECT_EQ(test::parse(res.body), (json{{"status", "ok"}}));
}

TEST_F(Http, ServesFilesWithTheirTypes) {
    auto res = http_get(server_.port(), "/");
    EXPECT_EQ(res.status, 200);
    EXPECT_EQ(res.content_type, "text/html; charset=utf-8");
    EXPECT_NE(res.body.find("Chessence"), std::string::npos);
    res = http_get(server_.port(), "/app.js?v=3");
    EXPECT_EQ(res.status, 200);
    EXPECT_EQ(res.content_type, "text/javascript; charset=utf-8");
    EXPECT_EQ(res.body, "export const x = 1;\n");
    res = http_get(server_.port(), "/style.css");
    EXPECT_EQ(res.content_type, "text/css; charset=utf-8");
    res = http_get(server_.port(), "/img/piece.svg");
    EXPECT_EQ(res.status, 200);
    EXPECT_EQ(res.content_type, "image/svg+xml");
    res = http_get(server_.port(), "/img/");  // a folder without index.html: the app
    EXPECT_EQ(res.content_type, "text/html; charset=utf-8");
    res = http_get(server_.port(), "/app.js", "HEAD");
    EXPECT_EQ(res.status, 200);
    EXPECT_TRUE(res.body.empty());
}

TEST_F(Http, MissingFilesAre404AndClientRoutesGetTheApp) {
    EXPECT_EQ(http_get(server_.port(), "/missing.js").status, 404);
    const auto route = http_get(server_.port(), "/game/g_123");
    EXPECT_EQ(route.status, 200);
    EXPECT_EQ(route.content_type, "text/html; charset=utf-8");
}

TEST_F(Http, NoPathLeavesTheWebRoot) {
    for (const char* target : {"/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt",
                               "/img/..%2f..%2fsecret.txt", "/..\\secret.txt", "/img/%00x"}) {
        const auto res = http_get(server_.port(), target);
        EXPECT_EQ(res.status, 400) << target;
        EXPECT_EQ(res.body.find("top secret"), std::string::npos) << target;
    }
    for (const char* target : {"/leak.txt", "/up/secret.txt"}) {
        const auto res = http_get(server_.port(), target);
        EXPECT_EQ(res.status, 404) << target;
        EXPECT_EQ(res.body.find("top secret"), std::string::npos) << target;
    }
}

TEST_F(Http, OnlyGetAndHead) {
    EXPECT_EQ(http_get(server_.port(), "/", "POST").status, 405);
    EXPECT_EQ(http_get(server_.port(), "/healthz", "DELETE").status, 405);
}

TEST_F(Http, GameApiReadsTheStore) {
    EXPECT_EQ(http_get(server_.port(), "/api/games/g_nothing").status, 404);
    EXPECT_EQ(http_get(server_.port(), "/api/unknown").status, 404);
    auto& store = server_.store();
    ASSERT_TRUE(store.insert_player({"p_a", "Ann", "h1", 1}).ok());
    ASSERT_TRUE(store.insert_player({"p_b", "Bob", "h2", 1}).ok());
    server::GameRecord game;
    game.id = "g_api";
    game.variant = "chesica";
    game.rules = "house";
    game.start_fen = "1q1q1q1q/r1r1r1r1/1b1b1b1b/8/8/B1B1B1B1/1R1R1R1R/Q1Q1Q1Q1 w 0 1";
    game.seats = {"p_a", "p_b"};
    game.status = "finished";
    game.result_json = R"({"winner":"black","reason":"resignation"})";
    game.created_at = 10;
    ASSERT_TRUE(store.create_game(game).ok());
    ASSERT_TRUE(
        store.append_event("g_api", 1, R"({"kind":"move","move":"c3-d4","by":"white","ply":1})")
            .ok());
    ASSERT_TRUE(
        store
            .append_event(
                "g_api", 2,
                R"({"kind":"chat","from":"Ann","player_id":"p_a","seat":"white","text":"hi","at":"2026-11-23T10:00:00Z"})")
            .ok());
    ASSERT_TRUE(
        store.append_event("g_api", 3, R"({"kind":"move","move":"b6-c5","by":"black","ply":2})")
            .ok());
    const auto res = http_get(server_.port(), "/api/games/g_api");
    ASSERT_EQ(res.status, 200);
    const auto body = test::parse(res.body);
    EXPECT_EQ(body["game_id"], "g_api");
    EXPECT_EQ(body["variant"], "chesica");
    EXPECT_EQ(body["moves"], json::array({"c3-d4", "b6-c5"}));
    EXPECT_EQ(body["players"][0]["name"], "Ann");
    EXPECT_EQ(body["players"][1]["seat"], "black");
    EXPECT_EQ(body["result"]["reason"], "resignation");
    EXPECT_EQ(body["version"], 3);
    EXPECT_EQ(body["start_fen"], game.start_fen);
}

TEST_F(Http, PlayerGamesArePaged) {
    auto& store = server_.store();
    ASSERT_TRUE(store.insert_player({"p_a", "Ann", "h1", 1}).ok());
    ASSERT_TRUE(store.insert_player({"p_b", "Bob", "h2", 1}).ok());
    const int total = server::games_page_size + 5;
    for (int i = 0; i < total; ++i) {
        server::GameRecord game;
        game.id = "g_" + std::to_string(i);
        game.variant = "chessence";
        game.rules = "house";
        game.seats = {"p_a", "p_b"};
        ASSERT_TRUE(store.create_game(game).ok());
        ASSERT_TRUE(
            store.finish_game(game.id, R"({"winner":null,"reason":"agreement"})", 1000 + i).ok());
    }
    auto res = http_get(server_.port(), "/api/players/p_a/games");
    ASSERT_EQ(res.status, 200);
    auto body = test::parse(res.body);
    EXPECT_EQ(body["page"], 1);
    EXPECT_EQ(body["games"].size(), static_cast<std::size_t>(server::games_page_size));
    EXPECT_EQ(body["games"][0]["game_id"], "g_" + std::to_string(total - 1));
    EXPECT_TRUE(body["has_more"].get<bool>());
    res = http_get(server_.port(), "/api/players/p_b/games?page=2");
    body = test::parse(res.body);
    EXPECT_EQ(body["games"].size(), 5u);
    EXPECT_FALSE(body["has_more"].get<bool>());
    EXPECT_EQ(body["games"][4]["game_id"], "g_0");
    EXPECT_EQ(http_get(server_.port(), "/api/players/p_a/games?page=0").status, 400);
    EXPECT_EQ(http_get(server_.port(), "/api/players/p_a/games?page=x").status, 400);
    EXPECT_EQ(http_get(server_.port(), "/api/players/p_zz/games").status, 404);
}

TEST_F(Http, PgnOfAnUnknownGameIs404) {
    EXPECT_EQ(http_get(server_.port(), "/api/games/g_nothing.pgn").status, 404);
}

TEST_F(Http, PlainGetOfTheSocketPathAsksForAnUpgrade) {
    EXPECT_EQ(http_get(server_.port(), "/ws").status, 426);
}

// A request whose handler throws (the store's read fails) is answered 500 and logged; the server
// goes on answering.
TEST(HttpErrors, AThrowingHandlerIsA500AndTheServerGoesOn) {
    test::LogCapture log({"http"});
    auto owned = std::make_unique<test::ThrowingStore>();
    auto* store = owned.get();
    {
        test::TestServer server({}, std::move(owned));
        store->fail_reads = 1;
        const auto res = http_get(server.port(), "/api/games/g_boom");
        EXPECT_EQ(res.status, 500);
        EXPECT_EQ(test::parse(res.body), (json{{"error", "internal error"}}));
        EXPECT_EQ(http_get(server.port(), "/api/games/g_boom").status, 404);
        EXPECT_EQ(http_get(server.port(), "/healthz").status, 200);
    }
    EXPECT_TRUE(log.has_line_with({"GET /api/games/g_boom", "exception", "read refused"}))
        << log.text();
}

// A game whose record cannot be read is answered 500 with a JSON error, not 404: the game is
// there, the server could not read it. Once reads work the same request finds it.
TEST(HttpErrors, AGameThatCannotBeReadIsA500NotA404) {
    test::LogCapture log({"http"});
    auto owned = std::make_unique<test::ReadFailingStore>();
    auto* store = owned.get();
    test::TestServer server({}, std::move(owned));
    ASSERT_TRUE(store->insert_player({"p_a", "Ann", "hash_a", 1}).ok());
    server::GameRecord game;
    game.id = "g_there";
    game.variant = "chesica";
    game.rules = "house";
    game.seats = {"p_a", "p_a"};
    ASSERT_TRUE(store->create_game(game).ok());

    store->fail_reads = true;
    const auto failed = http_get(server.port(), "/api/games/g_there");
    EXPECT_EQ(failed.status, 500);
    EXPECT_EQ(failed.content_type, "application/json");
    EXPECT_EQ(test::parse(failed.body),
              (json{{"error", "the server could not read the game; try again"}}));
    EXPECT_EQ(http_get(server.port(), "/api/games/g_none").status, 500);

    store->fail_reads = false;
    EXPECT_EQ(http_get(server.port(), "/api/games/g_there").status, 200);
    EXPECT_EQ(http_get(server.port(), "/api/games/g_none").status, 404);
    EXPECT_TRUE(log.has_line_with({"cannot read the game", "test store: cannot read game"}))
        << log.text();
}

}  // namespace
