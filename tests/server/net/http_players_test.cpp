// Rated games end to end (issue 16): two accounts play a rated game to a result, both ratings
// change by exactly the Glicko-2 amounts as /api/players/<id> shows them, and the numbers survive a
// restart on the same database; player pages, game lists with filters, PGN, leaderboards and
// private games.
#include "server/net/http_players.h"

#include <gtest/gtest.h>

#include <future>

#include "server/game/glicko2.h"
#include "server/game/identity.h"
#include "server/storage_test_util.h"
#include "server/store/memory_store.h"
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

// Gives `a` and `b` these ratings in Chessence as if they had just played each other at `at`.
void set_ratings(server::Store& store, const std::string& a, server::RatingValue ra,
                 const std::string& b, server::RatingValue rb, std::int64_t at) {
    server::RateGame write;
    write.game_id = "g_" + a + "_" + b;
    write.variant = "chessence";
    write.players = {a, b};
    write.at = at;
    write.rate = [=](const auto&, std::int64_t) {
        const server::RatingValue start{1500, 350, 0.06};
        return std::vector<server::RatedSeat>{{start, ra}, {start, rb}};
    };
    std::promise<core::Status> done;
    store.commit({std::move(write)}, [&](core::Status s) { done.set_value(std::move(s)); });
    ASSERT_TRUE(done.get_future().get());
}

std::vector<std::string> ids_of(const json& list) {
    std::vector<std::string> ids;
    for (const auto& line : list) {
        ids.push_back(line["id"]);
    }
    return ids;
}

TEST(HttpPlayers, ProvisionalRatingsAreListedUnrankedApartFromTheLeaderboard) {
    auto store = server::make_memory_store();
    for (const char* id : {"p_ann", "p_bob", "p_cat", "p_dan", "p_eve", "p_fay"}) {
        ASSERT_TRUE(
            store->insert_player({id, std::string(id).substr(2), "hash_" + std::string(id), 1}));
    }
    const auto now = server::unix_now();
    // ann and bob after one rated game each (provisional), cat and dan established, eve and fay
    // provisional but last seen 100 days ago.
    const auto one_game = server::glicko2::rate_game({}, 0.0, {}, 0.0, 1.0);
    set_ratings(*store, "p_ann", {one_game.first.rating, one_game.first.rd, 0.06}, "p_bob",
                {one_game.second.rating, one_game.second.rd, 0.06}, now);
    set_ratings(*store, "p_cat", {1900, 60, 0.06}, "p_dan", {1400, 110, 0.06}, now);
    set_ratings(*store, "p_eve", {2000, 200, 0.06}, "p_fay", {1000, 200, 0.06}, now - 100 * 86400);
    ASSERT_GT(one_game.first.rd, server::glicko2::provisional_rd);

    const auto reply = server::serve_player_api(*store, "/api/leaderboard/chessence", "", "");
    ASSERT_TRUE(reply);
    ASSERT_EQ(reply->status, 200);
    const auto board = test::parse(reply->body);
    EXPECT_EQ(ids_of(board["players"]), (std::vector<std::string>{"p_cat", "p_dan"}));
    EXPECT_EQ(board["players"][0]["rank"], 1);
    EXPECT_EQ(board["players"][1]["rank"], 2);
    EXPECT_EQ(ids_of(board["provisional"]), (std::vector<std::string>{"p_ann", "p_bob"}));
    const auto& ann = board["provisional"][0];
    EXPECT_FALSE(ann.contains("rank"));
    EXPECT_EQ(ann["name"], "ann");
    EXPECT_DOUBLE_EQ(ann["rating"].get<double>(), one_game.first.rating);
    EXPECT_DOUBLE_EQ(ann["rd"].get<double>(), one_game.first.rd);
    EXPECT_EQ(ann["games"], 1);
    EXPECT_TRUE(test::parse(server::serve_player_api(*store, "/api/leaderboard/chesica", "", "")
                                ->body)["provisional"]
                    .empty());
}

TEST(HttpPlayers, ManyBetterEstablishedRatingsDoNotCrowdOutTheProvisionalOnes) {
    auto store = server::make_memory_store();
    const auto now = server::unix_now();
    // 150 established players, all rated above 60 provisional ones.
    for (int i = 0; i < 105; ++i) {
        const auto a = "p_a" + std::to_string(i);
        const auto b = "p_b" + std::to_string(i);
        for (const auto& id : {a, b}) {
            ASSERT_TRUE(store->insert_player({id, id, "hash_" + id, 1}));
        }
        if (i < 75) {
            set_ratings(*store, a, {2000.0 + i, 50, 0.06}, b, {1900.0 + i, 50, 0.06}, now);
        } else {
            set_ratings(*store, a, {1500.0 + i, 200, 0.06}, b, {1200.0 + i, 200, 0.06}, now);
        }
    }
    const auto board =
        test::parse(server::serve_player_api(*store, "/api/leaderboard/chessence", "", "")->body);
    ASSERT_EQ(board["players"].size(), 50u);
    EXPECT_EQ(board["players"][0]["id"], "p_a74");
    ASSERT_EQ(board["provisional"].size(), 50u);
    EXPECT_EQ(board["provisional"][0]["id"], "p_a104");
    EXPECT_EQ(board["provisional"][29]["id"], "p_a75");
    EXPECT_EQ(board["provisional"][30]["id"], "p_b104");
    for (const auto& line : board["provisional"]) {
        EXPECT_GT(line["rd"].get<double>(), server::glicko2::provisional_rd);
    }
}

}  // namespace
