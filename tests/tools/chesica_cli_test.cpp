// The `chessence` tool on Chesica: perft, --divide and replay, run as a separate process.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tool_process.h"

namespace {

// Runs `chessence <arguments>` through the shell and returns its standard output.
std::string run_chessence(const std::string& arguments) {
    const std::string command = std::string(CHESSENCE_BIN_DIR) + "/chessence " + arguments;
    const auto run = tool_test::run_shell(command);
    EXPECT_EQ(run.status, 0) << command;
    return run.out;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

// Replays JSON input lines through `chessence replay chesica [flags]`; one JSON value per line.
std::vector<nlohmann::json> replay(const std::vector<std::string>& input,
                                   const std::string& flags = "") {
    // One file per test process: ctest runs tests in parallel, and other checkouts share TempDir().
    const std::string path =
        testing::TempDir() + "chesica_replay_input_" + std::to_string(::getpid()) + "_" +
        testing::UnitTest::GetInstance()->current_test_info()->name() + ".jsonl";
    {
        std::ofstream file(path);
        for (const auto& line : input) {
            file << line << "\n";
        }
    }
    std::vector<nlohmann::json> output;
    for (const auto& line : lines_of(run_chessence("replay chesica " + flags + " < " + path))) {
        output.push_back(nlohmann::json::parse(line, nullptr, false));
        EXPECT_FALSE(output.back().is_discarded()) << line;
    }
    std::remove(path.c_str());
    return output;
}

}  // namespace

TEST(ChesicaCli, PerftCountsTheReferenceNodes) {
    EXPECT_EQ(run_chessence("perft chesica 3"), "nodes 23983\n");
    EXPECT_EQ(run_chessence("perft chesica 0"), "nodes 1\n");
    EXPECT_EQ(run_chessence("perft chesica 1 --fen '8/8/3b1b2/8/3b4/2B5/1r6/R7 w 0 1' --divide"),
              "c3xe5xc7: 1\nc3xe5xg7: 1\nnodes 2\n");
}

TEST(ChesicaCli, DivideListsEveryMoveAndSums) {
    const auto lines = lines_of(run_chessence("perft chesica 3 --divide"));
    ASSERT_EQ(lines.size(), 30u);  // 29 moves, then the total
    std::uint64_t sum = 0;
    std::string previous;
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        const auto colon = lines[i].find(": ");
        ASSERT_NE(colon, std::string::npos) << lines[i];
        const std::string move = lines[i].substr(0, colon);
        EXPECT_LT(previous, move);  // legal_moves order: sorted
        previous = move;
        sum += std::stoull(lines[i].substr(colon + 2));
    }
    EXPECT_EQ(sum, 23983u);
    EXPECT_EQ(lines.back(), "nodes 23983");
}

TEST(ChesicaCli, PerftAfterMoves) {
    // Black's b6-c5 offers the Bishop on d4 a jump, which is then White's only move.
    EXPECT_EQ(run_chessence("perft chesica 1 --moves 'c3-d4 b6-c5' --divide"),
              "d4xb6: 1\nnodes 1\n");
}

TEST(ChesicaCli, ReplayReportsEveryPly) {
    const auto out = replay({R"({"moves": ["a3-b4", "b6-c5", "b4-c5"]})"});
    ASSERT_EQ(out.size(), 1u);
    const auto& plies = out[0]["plies"];
    ASSERT_EQ(plies.size(), 4u);
    EXPECT_EQ(plies[0]["fen"], "1q1q1q1q/r1r1r1r1/1b1b1b1b/8/8/B1B1B1B1/1R1R1R1R/Q1Q1Q1Q1 w 0 1");
    EXPECT_EQ(plies[0]["legal"].size(), 29u);
    EXPECT_EQ(plies[0]["in_check"], false);
    EXPECT_EQ(plies[3]["fen"], "1q1q1q1q/r1r1r1r1/3b1b1b/2B5/8/2B1B1B1/1R1R1R1R/Q1Q1Q1Q1 b 0 2");
    EXPECT_TRUE(out[0]["result"].is_null());
}

TEST(ChesicaCli, ReplayReportsTheResultAndErrors) {
    const auto out = replay({
        R"({"fen": "8/8/8/8/3r4/2B5/8/8 w 0 1", "moves": ["c3-e5"]})",
        R"({"fen": "8/8/8/3bb3/3Q4/8/8/7q w 0 1", "moves": ["d4xe5"]})",
        R"({"fen": "7+r/8/8/8/8/8/8/+R7 w 99 60", "moves": ["a1-a2"]})",
        R"({"fen": "8/8 w 0 1", "moves": []})",
    });
    ASSERT_EQ(out.size(), 4u);
    EXPECT_EQ(out[0]["result"], (nlohmann::json{{"winner", "white"}, {"reason", "all_captured"}}));
    EXPECT_EQ(out[0]["plies"][1]["legal"], nlohmann::json::array());
    EXPECT_EQ(out[1]["error"]["ply"], 1);
    EXPECT_NE(out[1]["error"]["message"].get<std::string>().find("compulsory"), std::string::npos);
    EXPECT_EQ(out[2]["result"],
              (nlohmann::json{{"winner", nullptr}, {"reason", "hundred_ply_rule"}}));
    EXPECT_EQ(out[3]["error"]["ply"], 0);
}

TEST(ChesicaCli, StrictReplayHasNoDraw) {
    const auto out =
        replay({R"({"fen": "7+r/8/8/8/8/8/8/+R7 w 99 60", "moves": ["a1-a2"]})"}, "--strict");
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(out[0]["result"].is_null());
}
