// Runs the built `chessence` tool on Sniderman positions and checks what it prints.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "core/sniderman/objects.h"
#include "tool_process.h"

namespace {

using nlohmann::json;

// The standard output of `chessence <arguments>`.
std::string run(const std::string& arguments, const std::string& input = "") {
    const std::string command =
        input.empty() ? std::string(CHESSENCE_BIN_DIR) + "/chessence " + arguments
                      : "printf '%s\\n' '" + input + "' | " + std::string(CHESSENCE_BIN_DIR) +
                            "/chessence " + arguments;
    return tool_test::run_shell(command).out;
}

TEST(SnidermanCli, PerftCountsCaptureSequences) {
    EXPECT_EQ(run("perft sniderman 4"), "nodes 110742\n");
    const std::string divided = run("perft sniderman 2 --divide");
    EXPECT_NE(divided.find("nodes 380\n"), std::string::npos);
}

TEST(SnidermanCli, ReplayReportsTheObjectsWinner) {
    const json out =
        json::parse(run("replay sniderman",
                        R"({"fen": "4/4/4/Kqr1 1", "object": 9, "moves": ["a1xb1", "b1-c1"]})"));
    ASSERT_TRUE(out.contains("plies")) << out.dump();
    EXPECT_EQ(out["plies"].size(), 3u);
    EXPECT_EQ(out["plies"][1]["fen"], "4/4/4/1Kr1 2");
    EXPECT_EQ(out["result"]["winner"], "odd");
    EXPECT_EQ(out["result"]["reason"], "object_decided");
    const json other =
        json::parse(run("replay sniderman",
                        R"({"fen": "4/4/4/Kqr1 1", "object": 9, "moves": ["a1xb1", "c1xb1"]})"));
    EXPECT_EQ(other["result"]["winner"], "even");
}

TEST(SnidermanCli, SolveGivesEveryObject) {
    const json out = json::parse(run("solve sniderman --fen \"4/4/4/Kqr1 1\""));
    ASSERT_TRUE(out.contains("objects")) << out.dump();
    ASSERT_EQ(out["objects"].size(), 10u);
    // Object 1: b1xa1 takes the white king and ends the round; a1xb1 lets EVEN end it on the rook.
    EXPECT_EQ(out["objects"]["1"]["winner"], "odd");
    EXPECT_EQ(out["objects"]["1"]["winning_moves"], json::array({"b1xa1"}));
    // Object 9: after a1xb1 EVEN must take (b1xc1 keeps both captures Black, c1xb1 takes White).
    EXPECT_EQ(out["objects"]["9"]["winner"], "even");
    EXPECT_EQ(out["objects"]["9"]["winning_moves"], json::array());
    EXPECT_EQ(out["to_move"], "odd");
}

TEST(SnidermanCli, SolveAfterMovesCountsThem) {
    const json out = json::parse(run("solve sniderman --fen \"4/4/4/Kqr1 1\" --moves \"a1xb1\""));
    EXPECT_EQ(out["to_move"], "even");
    // The queen is taken; c1xb1 would take the king (outranks: ODD), b1xc1 a rook (EVEN).
    EXPECT_EQ(out["objects"]["10"]["winner"], "even");
    EXPECT_EQ(out["objects"]["10"]["winning_moves"], json::array({"b1xc1"}));
}

TEST(SnidermanCli, PuzzleAnswerIsTheOnlyWinningMove) {
    const json puzzle = json::parse(run("puzzle sniderman --seed 5"));
    ASSERT_TRUE(puzzle.contains("answer")) << puzzle.dump();
    EXPECT_EQ(puzzle, json::parse(run("puzzle sniderman --seed 5")));
    const int object = puzzle["object"].get<int>();
    EXPECT_EQ(puzzle["object_text"], std::string(core::sniderman::object_text(object)));
    std::string moves;
    for (const auto& m : puzzle["moves"]) {
        moves += m.get<std::string>() + " ";
    }
    const json solved =
        json::parse(run("solve sniderman --fen \"" + puzzle["start"].get<std::string>() +
                        "\" --moves \"" + moves + "\""));
    EXPECT_EQ(solved["fen"], puzzle["fen"]);
    EXPECT_EQ(solved["to_move"], puzzle["to_move"]);
    const json& answer = solved["objects"][std::to_string(object)];
    EXPECT_EQ(answer["winner"], puzzle["to_move"]);
    EXPECT_EQ(answer["winning_moves"], json::array({puzzle["answer"]}));
}

TEST(SnidermanCli, BadInputIsRefused) {
    EXPECT_EQ(run("solve sniderman --fen \"4/4/4 1\" 2>/dev/null"), "");
    EXPECT_EQ(run("puzzle sniderman --seed x 2>/dev/null"), "");
    EXPECT_EQ(run("solve chesica --fen \"4/4/4/4 1\" 2>/dev/null"), "");
}

}  // namespace
