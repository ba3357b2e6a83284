// The `chessence` tool on Chessence: perft (with --divide, --moves, --fen) and replay, run as a
// separate process the way a user or a script runs it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/game.h"
#include "tool_process.h"

namespace {

using nlohmann::json;

using tool_test::ToolRun;

// Runs the tool with `arguments` (already quoted for the shell), standard input from `input`.
ToolRun run_tool(const std::string& arguments, const std::string& input = "") {
    const auto input_path = std::filesystem::temp_directory_path() /
                            ("chessence_cli_test_" + std::to_string(::getpid()) + ".in");
    {
        std::ofstream file(input_path);
        file << input;
    }
    const std::string command = std::string(CHESSENCE_BIN_DIR) + "/chessence " + arguments +
                                " < '" + input_path.string() + "' 2>&1";
    auto run = tool_test::run_shell(command);
    std::filesystem::remove(input_path);
    return run;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        lines.push_back(line);
    }
    return lines;
}

json replay(const json& input, const std::string& flags = "") {
    const ToolRun run = run_tool("replay chessence " + flags, input.dump() + "\n");
    EXPECT_EQ(run.status, 0) << run.out;
    const auto lines = lines_of(run.out);
    EXPECT_EQ(lines.size(), 1u) << run.out;
    return lines.empty() ? json() : json::parse(lines[0], nullptr, false);
}

const std::string start_fen = "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w 0 1";

TEST(ChessenceCli, PerftThreeFromTheStart) {
    const ToolRun run = run_tool("perft chessence 3");
    ASSERT_EQ(run.status, 0) << run.out;
    const auto lines = lines_of(run.out);
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.back(), "nodes 46194");
}

TEST(ChessenceCli, DivideHasOneLinePerLegalMoveSummingToTheTotal) {
    const ToolRun run = run_tool("perft chessence 3 --divide");
    ASSERT_EQ(run.status, 0) << run.out;
    auto lines = lines_of(run.out);
    ASSERT_EQ(lines.size(), 37u);
    EXPECT_EQ(lines.back(), "nodes 46194");
    lines.pop_back();
    std::uint64_t sum = 0;
    std::vector<std::string> names;
    for (const auto& line : lines) {
        const auto colon = line.find(": ");
        ASSERT_NE(colon, std::string::npos) << line;
        names.push_back(line.substr(0, colon));
        sum += std::stoull(line.substr(colon + 2));
    }
    EXPECT_EQ(sum, 46194u);
    auto game = core::make_game(core::VariantId::chessence);
    ASSERT_TRUE(game.ok());
    EXPECT_EQ(names, (*game)->legal_moves());
}

TEST(ChessenceCli, MovesArePlayedBeforeCounting) {
    const ToolRun run = run_tool("perft chessence 2 --moves \"e1-d1 b9-c9\"");
    ASSERT_EQ(run.status, 0) << run.out;
    auto game = core::make_game(core::VariantId::chessence);
    ASSERT_TRUE(game.ok());
    ASSERT_TRUE((*game)->play("e1-d1").ok());
    ASSERT_TRUE((*game)->play("b9-c9").ok());
    EXPECT_EQ(lines_of(run.out).back(), "nodes " + std::to_string((*game)->perft(2)));
    EXPECT_NE((*game)->perft(2), 1294u);

    const ToolRun illegal = run_tool("perft chessence 2 --moves \"e1-d1 e1-d1\"");
    EXPECT_EQ(illegal.status, 1);
    EXPECT_NE(illegal.out.find("move 'e1-d1'"), std::string::npos) << illegal.out;
}

TEST(ChessenceCli, FenSetsThePosition) {
    const ToolRun run = run_tool(
        "perft chessence 1 --divide --fen 'k5/5*/4*1/2*3/1*2*1/3*2/1*M3/*m1M2/1m3K[] w 0 1'");
    ASSERT_EQ(run.status, 0) << run.out;
    EXPECT_EQ(lines_of(run.out),
              (std::vector<std::string>{"c3xb2: 1", "d2-c1: 1", "d2-e1: 1", "nodes 3"}));
    const ToolRun bad = run_tool("perft chessence 1 --fen 'k5/5*/4*1/2*3[] w 0 1'");
    EXPECT_EQ(bad.status, 1);
    EXPECT_NE(bad.out.find("bad position: the placement has 4 ranks"), std::string::npos)
        << bad.out;
}

TEST(ChessenceCli, ReplayGivesOneEntryPerPositionIncludingTheFinalOne) {
    const json out = replay({{"moves", {"e1-d1", "b9-c9", "d1-e1"}}});
    ASSERT_TRUE(out.contains("plies")) << out.dump();
    ASSERT_EQ(out["plies"].size(), 4u);
    EXPECT_EQ(out["plies"][0]["fen"], start_fen);
    EXPECT_EQ(out["plies"][0]["legal"].size(), 36u);
    EXPECT_EQ(out["plies"][0]["in_check"], false);
    EXPECT_EQ(out["plies"][3]["fen"],
              "k1m3/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] b 3 2");
    EXPECT_TRUE(out["result"].is_null());
}

TEST(ChessenceCli, ReplayReportsTheResultOfALostPosition) {
    const json lost =
        replay({{"fen", "k5/mm3*/4*1/2*3/1*2*1/3*2/1*4/*5/M4K[] w 0 1"}, {"moves", json::array()}});
    EXPECT_EQ(lost["result"], (json{{"winner", "black"}, {"reason", "stalemate"}}));
    EXPECT_TRUE(lost["plies"][0]["legal"].empty());

    const json mated =
        replay({{"fen", "k5/5*/4*1/2*3/1*2*1/3*2/1*4/*m4/1m3K[] w 0 1"}, {"moves", json::array()}});
    EXPECT_EQ(mated["result"], (json{{"winner", "black"}, {"reason", "checkmate"}}));
    EXPECT_EQ(mated["plies"][0]["in_check"], true);

    const json won =
        replay({{"fen", "k5/5*/3m*1/2*3/1*2*1/3*2/1*4/*3M1/4MK[] w 99 80"}, {"moves", {"e1-d1"}}});
    EXPECT_EQ(won["result"], (json{{"winner", "white"}, {"reason", "stalemate"}}));
}

TEST(ChessenceCli, ReplayDrawsUnlessStrict) {
    const json input = {{"fen", "km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w 99 9"},
                        {"moves", {"e1-d1"}}};
    EXPECT_EQ(replay(input)["result"], (json{{"winner", nullptr}, {"reason", "hundred_ply_rule"}}));
    EXPECT_TRUE(replay(input, "--strict")["result"].is_null());
}

TEST(ChessenceCli, ReplayNamesTheIllegalMove) {
    const json out = replay({{"moves", {"e1-d1", "b9-c9", "d1-d4"}}});
    ASSERT_TRUE(out.contains("error")) << out.dump();
    EXPECT_EQ(out["error"]["ply"], 3);
    EXPECT_EQ(out["error"]["move"], "d1-d4");
    EXPECT_NE(out["error"]["message"].get<std::string>().find("d4 is a missing square"),
              std::string::npos);

    const json bad_fen = replay({{"fen", "nonsense"}, {"moves", json::array()}});
    EXPECT_EQ(bad_fen["error"]["ply"], 0);
}

}  // namespace
