// Rated games end to end (issue 16): two accounts play a rated game to a result, both ratings
// change by exactly the Glicko-2 amounts as /api/players/<id> shows them, and the numbers survive a
// restart on the same database; player pages, game lists with filters, PGN, leaderboards and
// private games.
#include "server/net/http_players.h"

#include <gtest/gtest.h>

#include "server/game/glicko2.h"
#include "server/storage_test_util.h"
#include "server/store/sqlite_store.h"
#include "server/test_support.h"

namespace {

using test::json;
using test::WsClient;

server::Limits players_test_limits() {
    auto limits = test::fast_limits();
    limits.password_ops = 1;
    limits.password_memory = 8192;
    return limits;
}

std::unique_ptr<server::Store> open_db(const std::string& path) {
    auto store = server::open_sqlite_store(path);
    EXPECT_TRUE(store.ok());
    return store ? std::move(*store) : nullptr;
}

std::string register_player(WsClient& c, const std::string& username) {
    c.hello();
    c.send({{"type", "register"}, {"username", username}, {"password", "long enough"}});
    return c.wait_type("signed_in")["player"]["id"];
}

// `white` creates a seek (rated or not, private or not) as white, `black` accepts; the game id.
std::string start_game(WsClient& white, WsClient& black, bool rated, bool is_private = false) {
    white.send({{"type", "seek_create"},
                {"variant", "chessence"},
                {"side", "white"},
                {"rated", rated},
                {"private", is_private}});
    const std::string seek = white.wait_type("seek_created")["seek"]["seek_id"];
    black.send({{"type", "seek_accept"}, {"seek_id", seek}});
    const std::string game = white.wait_type("game_started")["game_id"];
    black.wait_type("game_started");
    return game;
}

json get_json(std::uint16_t port, const std::string& target, int status = 200) {
    const auto reply = test::http_get(port, target);
    EXPECT_EQ(reply.status, status) << target << ": " << reply.body;
    return reply.status == 200 ? test::parse(reply.body) : json();
}

void expect_rating(const json& rating, const server::glicko2::Rating& expected) {
    EXPECT_DOUBLE_EQ(rating["rating"].get<double>(), expected.rating);
    EXPECT_DOUBLE_EQ(rating["rd"].get<double>(), expected.rd);
    EXPECT_DOUBLE_EQ(rating["volatility"].get<double>(), expected.volatility);
}

TEST(HttpPlayers, ARatedGameChangesBothRatingsByGlicko2AndSurvivesARestart) {
    storage_test::TempDir dir;
    const auto db = dir.file("chessence.db");
    const auto expected = server::glicko2::rate_game({}, 0.0, {}, 0.0, 0.0);  // white resigns
    std::string ann_id;
    std::string bob_id;
    std::string game;
    {
        test::TestServer server(players_test_limits(), open_db(db));
        WsClient ann(server.port());
        WsClient bob(server.port());
        ann_id = register_player(ann, "ann");
        bob_id = register_player(bob, "bob");
        game = start_game(ann, bob, true);
        ann.send({{"type", "resign"}, {"game_id", game}, {"id", 1}});
        for (auto* client : {&ann, &bob}) {
            const auto change = client->wait_type("rating_change");
            EXPECT_EQ(change["game_id"], game);
            ASSERT_EQ(change["changes"].size(), 2u);
            EXPECT_EQ(change["changes"][0]["seat"], "white");
            EXPECT_EQ(change["changes"][0]["player_id"], ann_id);
            EXPECT_DOUBLE_EQ(change["changes"][0]["before"]["rating"].get<double>(), 1500.0);
            expect_rating(change["changes"][0]["after"], expected.first);
            expect_rating(change["changes"][1]["after"], expected.second);
        }
        const auto page = get_json(server.port(), "/api/players/" + ann_id);
        expect_rating(page["ratings"]["chessence"], expected.first);
        EXPECT_EQ(page["ratings"]["chessence"]["games"], 1);
        EXPECT_EQ(page["ratings"]["chessence"]["provisional"], true);
        EXPECT_EQ(page["tally"]["losses"], 1);
        ASSERT_EQ(page["rating_history"]["chessence"].size(), 1u);
        EXPECT_DOUBLE_EQ(page["rating_history"]["chessence"][0]["change"].get<double>(),
                         expected.first.rating - 1500.0);
        expect_rating(get_json(server.port(), "/api/players/bob")["ratings"]["chessence"],
                      expected.second);
        EXPECT_FALSE(
            get_json(server.port(), "/api/players/" + bob_id)["ratings"].contains("chesica"));
    }
    test::TestServer again(players_test_limits(), open_db(db));
    expect_rating(get_json(again.port(), "/api/players/" + ann_id)["ratings"]["chessence"],
                  expected.first);
    expect_rating(get_json(again.port(), "/api/players/" + bob_id)["ratings"]["chessence"],
                  expected.second);
    const auto record = get_json(again.port(), "/api/games/" + game);
    EXPECT_EQ(record["rated"], true);
    ASSERT_EQ(record["rating_change"].size(), 2u);
    expect_rating(record["rating_change"][1]["after"], expected.second);
    // A finished rated game's watchers get its rating change too.
    WsClient late(again.port());
    late.hello();
    late.send({{"type", "watch"}, {"game_id", game}, {"id", 2}});
    EXPECT_EQ(late.wait_type("snapshot")["rating_change"].size(), 2u);
}

TEST(HttpPlayers, CasualGamesChangeNoRatingAndRatedSeeksNeedAccounts) {
    test::TestServer server(players_test_limits());
    WsClient ann(server.port());
    WsClient guest(server.port());
    const auto ann_id = register_player(ann, "ann");
    guest.hello();
    ann.send({{"type", "seek_create"}, {"variant", "chessence"}, {"rated", true}, {"id", 1}});
    const std::string seek = ann.wait_type("seek_created")["seek"]["seek_id"];
    guest.send({{"type", "seek_accept"}, {"seek_id", seek}, {"id", 2}});
    EXPECT_EQ(guest.wait_error(2)["code"], "account_required");
    ann.send({{"type", "seek_cancel"}, {"seek_id", seek}, {"id", 3}});
    ann.wait_type("seek_cancelled");

    const auto game = start_game(ann, guest, false);
    ann.send({{"type", "resign"}, {"game_id", game}, {"id", 4}});
    ann.wait_for(
        [](const json& m) { return m["type"] == "event" && m["event"]["kind"] == "game_over"; });
    ann.sync();
    EXPECT_TRUE(ann.history_of("rating_change").empty());
    const auto page = get_json(server.port(), "/api/players/" + ann_id);
    EXPECT_TRUE(page["ratings"].empty());
    EXPECT_EQ(page["tally"]["games"], 1);
    EXPECT_EQ(page["tally"]["losses"], 1);
}

TEST(HttpPlayers, GameListsFilterPageAndHidePrivateGamesFromOthers) {
    test::TestServer server(players_test_limits());
    WsClient ann(server.port());
    WsClient bob(server.port());
    const auto ann_id = register_player(ann, "ann");
    register_player(bob, "bob");
    const auto open_game = start_game(ann, bob, false);
    ann.send({{"type", "resign"}, {"game_id", open_game}});
    const auto secret = start_game(ann, bob, false, true);
    bob.send({{"type", "resign"}, {"game_id", secret}});
    ann.wait_for([&](const json& m) {
        return m["type"] == "event" && m["game_id"] == secret && m["event"]["kind"] == "game_over";
    });

    const auto anonymous = get_json(server.port(), "/api/players/" + ann_id + "/games");
    ASSERT_EQ(anonymous["games"].size(), 1u);
    EXPECT_EQ(anonymous["games"][0]["game_id"], open_game);
    EXPECT_EQ(get_json(server.port(), "/api/players/" + ann_id)["tally"]["games"], 1);
    server::GameQuery mine;
    mine.player_id = ann_id;
    mine.viewer_id = ann_id;
    EXPECT_EQ(server.store().find_games(mine).value().size(), 2u);
    EXPECT_EQ(server.store().tally(ann_id, ann_id).value().wins, 1);

    EXPECT_EQ(get_json(server.port(), "/api/players/ann/games?result=loss")["games"].size(), 1u);
    EXPECT_EQ(get_json(server.port(), "/api/players/ann/games?result=win")["games"].size(), 0u);
    EXPECT_EQ(get_json(server.port(), "/api/players/ann/games?rated=true")["games"].size(), 0u);
    EXPECT_EQ(get_json(server.port(), "/api/players/ann/games?variant=chesica")["games"].size(),
              0u);
    get_json(server.port(), "/api/players/ann/games?result=maybe", 400);
    get_json(server.port(), "/api/players/ann/games?rated=1", 400);
    get_json(server.port(), "/api/players/ann/games?variant=chess", 400);
    get_json(server.port(), "/api/players/ann/games?page=0", 400);
    get_json(server.port(), "/api/players/nobody_at_all", 404);
    get_json(server.port(), "/api/players/ann/elsewhere", 404);

    const auto pgn = test::http_get(server.port(), "/api/players/ann/games.pgn");
    EXPECT_EQ(pgn.status, 200);
    EXPECT_EQ(pgn.content_type.rfind("application/x-chess-pgn", 0), 0u);
    EXPECT_NE(pgn.body.find("[Event "), std::string::npos);
    EXPECT_EQ(pgn.body.find("[Event ", pgn.body.find("[Event ") + 1), std::string::npos)
        << "the private game is left out";

    const auto board = get_json(server.port(), "/api/leaderboard/chessence");
    EXPECT_EQ(board["variant"], "chessence");
    EXPECT_TRUE(board["players"].empty());
    get_json(server.port(), "/api/leaderboard/chess", 404);
}

}  // namespace
