// The puzzle endpoints (server/net/http_puzzles.h): every answer of serve_puzzle_api for a fixed
// day and random number, then a real server with the shipped bank (daily stable within the day,
// random, by id) and one without a bank (503).
#include "server/net/http_puzzles.h"

#include <gtest/gtest.h>

#include <chrono>

#include "core/game.h"
#include "protocol/schema_validator.h"
#include "server/puzzles/sample_puzzles.h"
#include "server/test_support.h"

namespace {

using nlohmann::json;

const server::PuzzleCollection& puzzle_api_samples() {
    static const server::PuzzleCollection puzzles(puzzle_samples::sample_bank());
    return puzzles;
}

// Problems of a puzzle API answer against its JSON Schema (docs/schema/http/): empty when it
// conforms.
std::string puzzle_schema_problems(const json& body, const std::string& schema_file) {
    static schema::Validator validator(schema::protocol_schema_root());
    std::string problems;
    for (const auto& problem : validator.validate(body, "http/" + schema_file)) {
        problems += problem + "\n";
    }
    return problems;
}

// The JSON answer of `target` with the collection above at `moment`; `status` is expected, and
// the body is checked against its schema (the counts, a puzzle, or an error).
json puzzle_api_answer(const std::string& target, int status,
                       server::PuzzleMoment moment = {20784, 0},
                       const server::PuzzleCollection& puzzles = puzzle_api_samples()) {
    const auto reply = server::serve_puzzle_api(puzzles, target, moment);
    if (!reply) {
        ADD_FAILURE() << target << " is not a puzzle path";
        return json();
    }
    EXPECT_EQ(reply->status, status) << target << ": " << reply->body;
    EXPECT_EQ(reply->content_type, "application/json");
    const auto body = json::parse(reply->body, nullptr, false);
    EXPECT_FALSE(body.is_discarded()) << reply->body;
    const std::string schema_file = reply->status != 200       ? "error.json"
                                    : target == "/api/puzzles" ? "puzzle_counts.json"
                                                               : "puzzle.json";
    EXPECT_EQ(puzzle_schema_problems(body, schema_file), "") << target << ": " << reply->body;
    return body;
}

// The puzzle's first move is legal in its position (and it is of `game`).
void expect_playable_puzzle(const json& puzzle, const std::string& game) {
    ASSERT_TRUE(puzzle.is_object()) << puzzle.dump();
    EXPECT_EQ(puzzle["game"], game);
    for (const char* field : {"id", "rules", "fen", "to_move"}) {
        EXPECT_TRUE(puzzle[field].is_string()) << field << " in " << puzzle.dump();
    }
    ASSERT_TRUE(puzzle["solution"].is_array() && !puzzle["solution"].empty()) << puzzle.dump();
    core::GameOptions options;
    options.fen = puzzle["fen"].get<std::string>();
    options.object = puzzle.value("object", 0);
    auto made = core::make_game(*core::parse_variant(game), options);
    ASSERT_TRUE(made.ok()) << made.error();
    EXPECT_EQ(core::side_name((*made)->variant(), (*made)->to_move()), puzzle["to_move"]);
    EXPECT_TRUE((*made)->play(puzzle["solution"][0].get<std::string>()).ok()) << puzzle.dump();
}

TEST(PuzzleApi, LeavesOtherPathsAlone) {
    for (const char* target : {"/api/games/g_1", "/api/puzzlesx", "/puzzles", "/api/legal"}) {
        EXPECT_FALSE(server::serve_puzzle_api(puzzle_api_samples(), target, {}).has_value())
            << target;
    }
}

TEST(PuzzleApi, CountsThePuzzlesOfEachGame) {
    EXPECT_EQ(puzzle_api_answer("/api/puzzles", 200),
              json({{"games", {{"chessence", 2}, {"chesica", 2}, {"sniderman", 2}}}}));
}

TEST(PuzzleApi, TheDailyPuzzleIsTheSameAllDayAndChangesTheNext) {
    for (const std::string game : {"chessence", "chesica", "sniderman"}) {
        const auto morning = puzzle_api_answer("/api/puzzles/" + game + "/daily", 200, {20784, 1});
        const auto evening = puzzle_api_answer("/api/puzzles/" + game + "/daily", 200, {20784, 9});
        const auto tomorrow = puzzle_api_answer("/api/puzzles/" + game + "/daily", 200, {20785, 1});
        expect_playable_puzzle(morning, game);
        EXPECT_EQ(morning, evening);
        EXPECT_EQ(morning["date"], "2026-11-27");
        EXPECT_EQ(tomorrow["date"], "2026-11-28");
        EXPECT_NE(morning["id"], tomorrow["id"]);
    }
    const auto sniderman = puzzle_api_answer("/api/puzzles/sniderman/daily", 200);
    EXPECT_EQ(sniderman["object"], 2);
    EXPECT_EQ(sniderman["to_move"], "odd");
    EXPECT_TRUE(sniderman["object_text"].is_string());
}

TEST(PuzzleApi, RandomSkipsTheExcludedIds) {
    const auto& chesica = puzzle_api_samples().of(core::VariantId::chesica);
    for (std::uint64_t r = 0; r < 4; ++r) {
        const auto next = puzzle_api_answer(
            "/api/puzzles/chesica/random?exclude=" + chesica[0].id + ",ffffffffffff", 200, {1, r});
        expect_playable_puzzle(next, "chesica");
        EXPECT_EQ(next["id"], chesica[1].id);
    }
    const auto any = puzzle_api_answer(
        "/api/puzzles/chesica/random?exclude=" + chesica[0].id + "," + chesica[1].id, 200);
    expect_playable_puzzle(any, "chesica");
}

TEST(PuzzleApi, FindsAPuzzleById) {
    const auto& chessence = puzzle_api_samples().of(core::VariantId::chessence);
    const auto found = puzzle_api_answer("/api/puzzles/chessence/" + chessence[1].id, 200);
    EXPECT_EQ(found, protocol::puzzle_json(chessence[1]));
    const auto missing = puzzle_api_answer("/api/puzzles/chessence/000000000000", 404);
    EXPECT_EQ(missing["code"], "no_such_puzzle");
    EXPECT_NE(missing["error"].get<std::string>().find("000000000000"), std::string::npos);
    // Another game's id is not this game's puzzle.
    const auto& sniderman = puzzle_api_samples().of(core::VariantId::sniderman);
    EXPECT_EQ(puzzle_api_answer("/api/puzzles/chessence/" + sniderman[0].id, 404)["code"],
              "no_such_puzzle");
}

TEST(PuzzleApi, TheSchemaRefusesABrokenPuzzle) {
    const auto& sniderman = puzzle_api_samples().of(core::VariantId::sniderman);
    auto puzzle = puzzle_api_answer("/api/puzzles/sniderman/" + sniderman[0].id, 200);
    EXPECT_EQ(puzzle_schema_problems(puzzle, "puzzle.json"), "");
    for (const char* field : {"object", "solution", "eval"}) {
        auto broken = puzzle;
        broken.erase(field);
        EXPECT_NE(puzzle_schema_problems(broken, "puzzle.json"), "") << "without " << field;
    }
    auto empty_line = puzzle;
    empty_line["solution"] = json::array();
    EXPECT_NE(puzzle_schema_problems(empty_line, "puzzle.json"), "");
}

TEST(PuzzleApi, UnknownGamesAndPathsAreNotFound) {
    const auto chess = puzzle_api_answer("/api/puzzles/chess/daily", 404);
    EXPECT_EQ(chess["code"], "unknown_game");
    EXPECT_NE(chess["error"].get<std::string>().find("'chess'"), std::string::npos);
    EXPECT_EQ(puzzle_api_answer("/api/puzzles/chess", 404)["code"], "unknown_game");
    EXPECT_TRUE(puzzle_api_answer("/api/puzzles/chesica", 404).contains("error"));
    EXPECT_TRUE(puzzle_api_answer("/api/puzzles/chesica/daily/more", 404).contains("error"));
}

TEST(PuzzleApi, NoBankIsUnavailableAndAGameWithoutPuzzlesHasNone) {
    const auto none = server::PuzzleCollection::unavailable("cannot open the puzzle bank x");
    for (const char* target : {"/api/puzzles", "/api/puzzles/chessence/daily",
                               "/api/puzzles/chess/random", "/api/puzzles/sniderman/abc"}) {
        const auto answer = puzzle_api_answer(target, 503, {}, none);
        EXPECT_EQ(answer["code"], "puzzles_unavailable") << target;
        // The file's name stays in the log.
        EXPECT_EQ(answer["error"].get<std::string>().find("bank x"), std::string::npos);
    }
    auto bank = puzzle_samples::sample_bank();
    bank.puzzles.resize(2);
    const server::PuzzleCollection chessence_only(bank);
    const auto empty = puzzle_api_answer("/api/puzzles/sniderman/random", 404, {}, chessence_only);
    EXPECT_EQ(empty["code"], "no_puzzles");
}

// The real server with the bank it ships: the daily puzzle, twice the same within one UTC day;
// random ones; and without a bank, 503.
TEST(PuzzleApiServer, ServesTheShippedBank) {
    test::TestServer server;
    server.set_puzzles(std::string(CHESSENCE_SOURCE_DIR) + "/puzzles/bank.json");
    server.restart();
    const auto counts = test::http_get(server.port(), "/api/puzzles");
    ASSERT_EQ(counts.status, 200) << counts.body;
    for (const std::string game : {"chessence", "chesica", "sniderman"}) {
        EXPECT_GE(json::parse(counts.body)["games"][game].get<int>(), 100) << counts.body;
        const auto day_before =
            std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
        const auto first = test::http_get(server.port(), "/api/puzzles/" + game + "/daily");
        const auto second = test::http_get(server.port(), "/api/puzzles/" + game + "/daily");
        const auto day_after =
            std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
        ASSERT_EQ(first.status, 200) << first.body;
        expect_playable_puzzle(json::parse(first.body), game);
        if (day_before == day_after) {
            EXPECT_EQ(first.body, second.body);
        }
        const auto random =
            test::http_get(server.port(), "/api/puzzles/" + game + "/random?exclude=" +
                                              json::parse(first.body)["id"].get<std::string>());
        ASSERT_EQ(random.status, 200) << random.body;
        expect_playable_puzzle(json::parse(random.body), game);
        EXPECT_NE(json::parse(random.body)["id"], json::parse(first.body)["id"]);
        const auto again =
            test::http_get(server.port(), "/api/puzzles/" + game + "/" +
                                              json::parse(random.body)["id"].get<std::string>());
        EXPECT_EQ(again.body, random.body);
    }
    EXPECT_EQ(test::http_get(server.port(), "/api/puzzles/chess/daily").status, 404);
}

TEST(PuzzleApiServer, WithoutABankItAnswers503) {
    test::TestServer server;
    server.set_puzzles(std::string(CHESSENCE_SOURCE_DIR) + "/puzzles/no-such-bank.json");
    server.restart();
    const auto reply = test::http_get(server.port(), "/api/puzzles/chessence/daily");
    EXPECT_EQ(reply.status, 503);
    EXPECT_EQ(json::parse(reply.body)["code"], "puzzles_unavailable");
    // The rest of the server works.
    EXPECT_EQ(test::http_get(server.port(), "/healthz").status, 200);
}

}  // namespace
