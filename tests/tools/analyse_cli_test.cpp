// `chessence analyse` (issue 25): the server's game analysis from the command line, run as a
// separate process — one line per move, each side's accuracy, what it cost; bad input refused.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tool_process.h"

namespace {

// Runs `chessence analyse` with `arguments` (already quoted for the shell).
tool_test::ToolRun run_analyse_tool(const std::string& arguments) {
    return tool_test::run_chessence("analyse " + arguments);
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

TEST(AnalyseCli, OneLinePerMoveThenTheCost) {
    // White's jump takes Black's last piece: a forced win, then the result.
    const auto run =
        run_analyse_tool("chesica --nodes 2000 --fen '8/8/8/8/3r4/2B5/8/8 w 0 1' --moves c3xe5");
    EXPECT_EQ(run.status, 0) << run.out;
    EXPECT_TRUE(has(run.out, "1. c3xe5  result win  win 100.0  best c3xe5\n")) << run.out;
    EXPECT_TRUE(has(run.out, "accuracy_white 100.0\n")) << run.out;
    EXPECT_TRUE(has(run.out, "accuracy_black -\n")) << run.out;
    EXPECT_TRUE(has(run.out, "analysis_plies 1\n")) << run.out;
    EXPECT_TRUE(has(run.out, "analysis_positions 2\n")) << run.out;
    EXPECT_TRUE(has(run.out, "analysis_seconds ")) << run.out;
    EXPECT_TRUE(has(run.out, "analysis_cpu_seconds ")) << run.out;
}

TEST(AnalyseCli, SelfPlayIsSeeded) {
    const auto once = run_analyse_tool("chessence --nodes 1000 --selfplay 6 --seed 4");
    const auto again = run_analyse_tool("chessence --nodes 1000 --selfplay 6 --seed 4");
    EXPECT_EQ(once.status, 0) << once.out;
    EXPECT_TRUE(has(once.out, "analysis_plies 6\n")) << once.out;
    // The same game and analysis; only the times differ.
    EXPECT_EQ(once.out.substr(0, once.out.find("analysis_seconds")),
              again.out.substr(0, again.out.find("analysis_seconds")));
}

TEST(AnalyseCli, BadInputIsRefused) {
    EXPECT_EQ(run_analyse_tool("chess --moves e1-d1").status, 2);
    EXPECT_EQ(run_analyse_tool("chessence").status, 2);
    EXPECT_EQ(run_analyse_tool("chessence --nodes 0 --moves e1-d1").status, 2);
    const auto illegal = run_analyse_tool("chessence --moves 'e1-d1 e1-d1'");
    EXPECT_EQ(illegal.status, 1);
    EXPECT_TRUE(has(illegal.out, "move 2 (e1-d1)")) << illegal.out;
    EXPECT_EQ(run_analyse_tool("chessence --record /nonexistent/game.pgn").status, 1);
}

}  // namespace
