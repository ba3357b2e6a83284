// The JSON endpoints called directly: /api/legal (positions and legal moves for the rules pages
// and the analysis board), /api/seeks/<id> (the invitation page), and what every reading endpoint
// answers when the store cannot be read.
#include "server/net/http_api.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "server/log_capture.h"
#include "server/store/memory_store.h"
#include "server/test_stores.h"

namespace {

using nlohmann::json;

class HttpApi : public ::testing::Test {
protected:
    // The reply to GET `target`, which must be an API path.
    server::HttpReply get(const std::string& target) {
        auto reply = server::serve_api(*store_, target);
        EXPECT_TRUE(reply.has_value()) << target;
        return reply ? *reply : server::HttpReply{};
    }
    json get_json(const std::string& target, int status = 200) {
        const auto reply = get(target);
        EXPECT_EQ(reply.status, status) << target << ": " << reply.body;
        EXPECT_EQ(reply.content_type, "application/json");
        return json::parse(reply.body, nullptr, false);
    }

    std::unique_ptr<server::Store> store_ = server::make_memory_store();
};

TEST_F(HttpApi, LegalFromTheStartPosition) {
    const auto body = get_json("/api/legal?variant=chessence");
    EXPECT_EQ(body["variant"], "chessence");
    EXPECT_EQ(body["fen"], "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w 0 1");
    EXPECT_EQ(body["legal"].size(), 36u);  // RULES.md: perft 1 from the start
    EXPECT_EQ(body["to_move"], "white");
    EXPECT_FALSE(body["in_check"].get<bool>());
    EXPECT_EQ(body["board"]["files"], 6);
    EXPECT_EQ(body["board"]["squares"].size(), 54u);
    EXPECT_EQ(get_json("/api/legal?variant=chesica")["legal"].size(), 29u);
    EXPECT_EQ(
        get_json("/api/legal?variant=sniderman&fen=qbnr%2Frnbk%2FKBNR%2FRNBQ%201")["legal"].size(),
        20u);
}

TEST_F(HttpApi, LegalAfterMovesAndFromAPosition) {
    // A position of RULES.md: White in check, three answers.
    const auto body = get_json(
        "/api/"
        "legal?variant=chessence&fen=k5%2F5*%2F4*1%2F2*3%2F1*2*1%2F3*2%2F1*M3%2F*m1M2%2F1m3K%5B%5D%"
        "20w%200%201");
    EXPECT_TRUE(body["in_check"].get<bool>());
    EXPECT_EQ(body["legal"], json({"c3xb2", "d2-c1", "d2-e1"}));
    // Moves separated by commas or spaces; the answer is the position after them.
    const auto after = get_json("/api/legal?variant=chesica&moves=a3-b4,b6-a5%20b4xa5");
    EXPECT_EQ(after["to_move"], "black");
    EXPECT_NE(after["fen"].get<std::string>().find(" b "), std::string::npos);
    // A plus sign in a position string is a promoted piece, not a space.
    const auto promoted =
        get_json("/api/legal?variant=chesica&fen=7b/8/8/8/3+R4/8/8/8%20w%200%201");
    EXPECT_EQ(promoted["legal"].size(), 18u);
    EXPECT_EQ(promoted["board"]["squares"][27], "+R");
}

TEST_F(HttpApi, ChessenceMenCarryTheirPowers) {
    // d3 and e2 see each other diagonally and e3 orthogonally; e3 sees both orthogonally; the
    // lone Black man on b8 has no friend.
    const auto body = get_json(
        "/api/"
        "legal?variant=chessence&fen=k5%2F1m3*%2F4*1%2F2*3%2F1*2*1%2F3*2%2F1*1MM1%2F*3M1%2F5K%5B%"
        "5D%20w%200%201");
    EXPECT_EQ(body["powers"]["d3"], "rb");
    EXPECT_EQ(body["powers"]["e3"], "r");
    EXPECT_EQ(body["powers"]["e2"], "rb");
    EXPECT_EQ(body["powers"]["b8"], "");
    EXPECT_EQ(body["powers"].size(), 4u);  // men only: kings have no powers
    EXPECT_FALSE(get_json("/api/legal?variant=chesica").contains("powers"));
}

TEST_F(HttpApi, LegalErrorsSayWhatIsWrong) {
    EXPECT_NE(get_json("/api/legal", 400)["error"].get<std::string>().find("variant"),
              std::string::npos);
    EXPECT_NE(get_json("/api/legal?variant=chess", 400)["error"].get<std::string>().find("variant"),
              std::string::npos);
    EXPECT_NE(
        get_json("/api/legal?variant=chesica&fen=8%2F8", 400)["error"].get<std::string>().find(
            "bad fen"),
        std::string::npos);
    const auto illegal = get_json("/api/legal?variant=chesica&moves=a3-b4,a3-b4", 400);
    EXPECT_NE(illegal["error"].get<std::string>().find("move 2 (a3-b4)"), std::string::npos);
    EXPECT_EQ(get("/api/legal?variant=chesica&fen=%zz").status, 400);
    EXPECT_EQ(get("/api/legal?variant=chesica&rules=loose").status, 400);
    EXPECT_EQ(get("/api/legal?variant=chesica&fen=" + std::string(201, '8')).status, 400);
    std::string many = "/api/legal?variant=sniderman&moves=";
    for (int i = 0; i < 1001; ++i) {
        many += "a1xb2,";
    }
    EXPECT_NE(get_json(many, 400)["error"].get<std::string>().find("at most 1000"),
              std::string::npos);
}

TEST_F(HttpApi, AStrictGameKeepsGoingWhereTheHouseRulesDraw) {
    // Shuffling back and forth: the house rules end the game on the third occurrence.
    const std::string moves = "&moves=f2-f3,a8-a7,f3-f2,a7-a8,f2-f3,a8-a7,f3-f2,a7-a8";
    EXPECT_TRUE(get_json("/api/legal?variant=chessence" + moves)["legal"].empty());
    EXPECT_FALSE(get_json("/api/legal?variant=chessence&rules=strict" + moves)["legal"].empty());
}

TEST_F(HttpApi, SeeksAreReadFromTheStore) {
    EXPECT_EQ(get("/api/seeks/s_nothing").status, 404);
    const std::string text = R"({"seek_id":"s_1","variant":"chesica","private":true})";
    ASSERT_TRUE(store_->save_seek({"s_1", text}));
    const auto reply = get("/api/seeks/s_1");
    EXPECT_EQ(reply.status, 200);
    EXPECT_EQ(reply.body, text);
}

// A failed read is a 500 with a JSON error, never a 404 or an empty list; the same request works
// once reads do.
TEST(HttpApiReads, AFailedReadIsA500NeverANotFound) {
    test::LogCapture log({"http"});
    test::ReadFailingStore store;
    for (const char* id : {"p_ann", "p_bob"}) {
        ASSERT_TRUE(store.insert_player({id, id, std::string("hash_") + id, 1}).ok());
    }
    server::GameRecord game;
    game.id = "g_1";
    game.variant = "chesica";
    game.rules = "house";
    game.start_fen = "1q1q1q1q/r1r1r1r1/1b1b1b1b/8/8/B1B1B1B1/1R1R1R1R/Q1Q1Q1Q1 w 0 1";
    game.seats = {"p_ann", "p_bob"};
    ASSERT_TRUE(store.create_game(game).ok());
    ASSERT_TRUE(store.save_seek({"s_1", R"({"seek_id":"s_1"})"}).ok());
    const std::vector<std::string> targets = {
        "/api/games/g_1",     "/api/games/g_1.pgn",       "/api/seeks/s_1",
        "/api/players/p_ann", "/api/players/p_ann/games", "/api/players/p_ann/games.pgn",
        "/api/games/g_none",  "/api/leaderboard/chesica",
    };

    store.fail_reads = true;
    for (const auto& target : targets) {
        const auto reply = server::serve_api(store, target);
        ASSERT_TRUE(reply.has_value()) << target;
        EXPECT_EQ(reply->status, 500) << target;
        EXPECT_EQ(reply->content_type, "application/json") << target;
        const auto body = json::parse(reply->body, nullptr, false);
        EXPECT_NE(body.value("error", "").find("could not read"), std::string::npos)
            << target << ": " << reply->body;
    }
    EXPECT_EQ(server::serve_api(store, "/api/players/p_ann", "Bearer some-token")->status, 500);
    EXPECT_TRUE(log.has_line_with({"cannot read the game", "test store: cannot read game"}))
        << log.text();

    store.fail_reads = false;
    for (const auto& target : targets) {
        const int expected = target == "/api/games/g_none" ? 404 : 200;
        EXPECT_EQ(server::serve_api(store, target)->status, expected) << target;
    }
    const auto body = json::parse(server::serve_api(store, "/api/games/g_1")->body);
    EXPECT_EQ(body["players"][1]["name"], "p_bob");
}

}  // namespace
