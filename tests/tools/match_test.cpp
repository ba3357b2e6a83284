// `chessence match` (tools/chessence/match.cpp): a smoke run of two quick games per game, and its
// usage errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <string>

#include "tool_process.h"

namespace {

using tool_test::run_chessence;

TEST(Match, TwoQuickGamesPrintWinsDrawsAndLosses) {
    for (const char* variant : {"chessence", "chesica"}) {
        const auto run = run_chessence(std::string("match --variant ") + variant +
                                       " --levels 3 1 --games 2 --nodes 500 --seed 7 --verbose");
        ASSERT_EQ(run.status, 0) << run.out;
        std::smatch m;
        ASSERT_TRUE(
            std::regex_search(run.out, m, std::regex(R"(W / D / L: (\d+) / (\d+) / (\d+))")))
            << run.out;
        EXPECT_EQ(std::stoi(m[1]) + std::stoi(m[2]) + std::stoi(m[3]), 2) << run.out;
        EXPECT_NE(run.out.find("game 1: A first"), std::string::npos) << run.out;
        EXPECT_NE(run.out.find("game 2: A second"), std::string::npos) << run.out;
    }
}

TEST(Match, SameSeedAndNodeLimitReplayTheSameGames) {
    const std::string args =
        "match --variant chesica --levels 2 2 --games 2 --nodes 300 --seed 3 --verbose";
    EXPECT_EQ(run_chessence(args).out, run_chessence(args).out);
}

TEST(Match, UsageErrorsExitWithTwo) {
    for (const char* args : {"match", "match --variant chessence --levels 9 1 --games 2 --nodes 10",
                             "match --variant chessence --levels 1 1 --games 2",
                             "match --variant go --levels 1 1 --games 2 --nodes 10"}) {
        const auto run = run_chessence(args);
        EXPECT_EQ(run.status, 2) << args;
        EXPECT_NE(run.out.find("usage"), std::string::npos) << args;
    }
}

}  // namespace
