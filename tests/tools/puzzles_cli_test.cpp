// `chessence puzzles` (tools/chessence/puzzles.cpp): a tiny bank of each game (small budgets, so
// it stays quick on a 2-core machine) is valid, every puzzle in it is proved again by the finder,
// the same options give the same file on two threads, --check accepts it, positions are taken
// from the games of a record file, and bad options are refused.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "core/puzzles/finder.h"
#include "core/record.h"
#include "protocol/puzzles.h"
#include "tool_process.h"

namespace {

namespace fs = std::filesystem;

tool_test::ToolRun run_puzzles(const std::string& arguments) {
    return tool_test::run_chessence("puzzles " + arguments);
}

std::string read_text(const fs::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// The small budgets of these runs (the finder's settings must match them).
constexpr const char* tiny_options =
    "--count 1 --nodes 100000 --screen-nodes 5000 --move-nodes 3000 --objects 2 --seed 33";

class PuzzlesCli : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("chessence-puzzles-test-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
};

TEST_F(PuzzlesCli, ATinyBankIsValidAndEveryPuzzleIsProvedAgain) {
    const auto path = dir_ / "bank.json";
    const auto run = run_puzzles(std::string(tiny_options) + " --out " + path.string());
    ASSERT_EQ(run.status, 0) << run.out;
    EXPECT_NE(run.out.find("chessence: 1 puzzles from"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("sniderman: 1 puzzles from"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("bank: 3 puzzles, "), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("s of processor time"), std::string::npos) << run.out;

    const auto bank = protocol::parse_puzzle_bank(read_text(path));
    ASSERT_TRUE(bank.ok()) << bank.error();
    ASSERT_EQ(bank->puzzles.size(), 3u);
    std::map<core::VariantId, int> count;
    core::puzzles::FinderSettings settings;
    settings.nodes = 100'000;
    settings.screen_nodes = 5'000;
    core::puzzles::Finder finder(settings);
    for (const auto& puzzle : bank->puzzles) {
        ++count[puzzle.game];
        const auto verdict = finder.examine({puzzle.game, puzzle.rules, puzzle.fen, puzzle.object});
        ASSERT_TRUE(verdict.ok()) << verdict.error();
        ASSERT_TRUE(verdict->puzzle) << puzzle.fen;
        EXPECT_EQ(*verdict->puzzle, puzzle);
    }
    EXPECT_EQ(count.size(), 3u);
    EXPECT_EQ(bank->settings.at("nodes"), 100000);

    const auto check = run_puzzles("--check " + path.string());
    EXPECT_EQ(check.status, 0) << check.out;
    EXPECT_NE(check.out.find("checked 3 of 3 puzzles, 0 failed"), std::string::npos) << check.out;
}

TEST_F(PuzzlesCli, TwoThreadsWriteTheSameBankAsOne) {
    const auto one = dir_ / "one.json";
    const auto two = dir_ / "two.json";
    // Several games of each, so that the two threads finish them out of order.
    const std::string options =
        "--games chessence,chesica --count 2 --nodes 100000 --screen-nodes 5000 "
        "--move-nodes 3000 --seed 5";
    ASSERT_EQ(run_puzzles(options + " --out " + one.string()).status, 0);
    ASSERT_EQ(run_puzzles(options + " --threads 2 --out " + two.string()).status, 0);
    const auto text = read_text(one);
    EXPECT_NE(text.find("\"game\":\"chessence\""), std::string::npos);
    EXPECT_NE(text.find("\"game\":\"chesica\""), std::string::npos);
    EXPECT_EQ(text, read_text(two));
}

TEST_F(PuzzlesCli, CheckFailsOnAPuzzleThatIsNoLongerOne) {
    // A valid bank entry whose position is the start: no move wins there.
    const auto path = dir_ / "wrong.json";
    const std::string fen = "1q1q1q1q/r1r1r1r1/1b1b1b1b/8/8/B1B1B1B1/1R1R1R1R/Q1Q1Q1Q1 w 0 1";
    std::ofstream(path) << R"({"version":1,"settings":{"nodes":20000,"screen_nodes":2000},)"
                        << R"("puzzles":[{"id":")"
                        << core::puzzles::puzzle_id(core::VariantId::chesica, core::RuleSet::house,
                                                    fen, 0)
                        << R"(","game":"chesica","rules":"house","fen":")" << fen
                        << R"(","to_move":"white","solution":["c3-d4"],"eval":{"cp":500}}]})";
    const auto check = run_puzzles("--check " + path.string());
    EXPECT_EQ(check.status, 1) << check.out;
    EXPECT_NE(check.out.find("not the same puzzle any more"), std::string::npos) << check.out;
    EXPECT_NE(check.out.find("1 failed"), std::string::npos) << check.out;
}

// A record file of finished games (as the server exports them) in place of self-play: a Chesica
// game that starts at a puzzle of the shipped bank gives that puzzle; a game of another variant
// is left alone, and a game with a move the rules refuse is read up to it.
TEST_F(PuzzlesCli, FindsAPuzzleInTheGamesOfARecordFile) {
    std::ifstream bank_file(std::string(CHESSENCE_SOURCE_DIR) + "/puzzles/bank.json");
    std::stringstream bank_text;
    bank_text << bank_file.rdbuf();
    const auto shipped = protocol::parse_puzzle_bank(bank_text.str());
    ASSERT_TRUE(shipped.ok()) << shipped.error();
    const core::puzzles::Puzzle* known = nullptr;
    for (const auto& puzzle : shipped->puzzles) {
        if (puzzle.game == core::VariantId::chesica && puzzle.solution.size() >= 3) {
            known = &puzzle;
            break;
        }
    }
    ASSERT_NE(known, nullptr);
    const auto game_record = [&](const std::string& variant, std::vector<std::string> moves) {
        core::Record record;
        record.tags = {{"Variant", variant}, {"RuleSet", "house"}, {"FEN", known->fen}};
        record.second_moves_first = known->to_move == core::Side::second;
        record.moves = std::move(moves);
        return record;
    };
    const auto records = dir_ / "games.pgn";
    std::ofstream(records) << core::write_records({game_record("chessence", {"a1-a2"}),
                                                   game_record("chesica", known->solution),
                                                   game_record("chesica", {"a1-a8"})});
    const auto& settings = shipped->settings;
    const auto path = dir_ / "bank.json";
    const auto run = run_puzzles("--games chesica --count 3 --skip-plies 0 --nodes " +
                                 settings.at("nodes").dump() + " --screen-nodes " +
                                 settings.at("screen_nodes").dump() + " --line-plies " +
                                 settings.at("line_plies").dump() + " --records " +
                                 records.string() + " --out " + path.string());
    ASSERT_EQ(run.status, 0) << run.out;
    EXPECT_NE(run.out.find("chesica: 2 records in"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("puzzles from 2 games"), std::string::npos) << run.out;
    const auto bank = protocol::parse_puzzle_bank(read_text(path));
    ASSERT_TRUE(bank.ok()) << bank.error();
    ASSERT_GE(bank->puzzles.size(), 1u);
    EXPECT_EQ(bank->puzzles.front().id, known->id);
    EXPECT_EQ(bank->puzzles.front().solution.front(), known->solution.front());
    EXPECT_EQ(bank->settings.at("records"), "games.pgn");

    std::ofstream(dir_ / "bad.pgn") << "[Variant \"chesica\"]\n\n1. e3-e4 {unclosed\n";
    const auto bad = run_puzzles("--games chesica --records " + (dir_ / "bad.pgn").string() +
                                 " --out " + (dir_ / "x.json").string());
    EXPECT_EQ(bad.status, 1) << bad.out;
    EXPECT_NE(bad.out.find("bad.pgn"), std::string::npos) << bad.out;
    const auto missing = run_puzzles("--games chesica --records " + (dir_ / "none.pgn").string() +
                                     " --out " + (dir_ / "x.json").string());
    EXPECT_EQ(missing.status, 1) << missing.out;
    EXPECT_NE(missing.out.find("cannot read"), std::string::npos) << missing.out;
}

TEST_F(PuzzlesCli, RefusesBadOptionsAndFiles) {
    for (const char* bad : {"--count x", "--games chess", "--levels 0-3", "--levels 5-2",
                            "--objects 11", "--threads 0", "--nodes 0", "--line-plies 0",
                            "--count 1 --frobnicate", "stray", "--out"}) {
        const auto run = run_puzzles(bad);
        EXPECT_EQ(run.status, 2) << bad;
        EXPECT_NE(run.out.find("usage: chessence puzzles"), std::string::npos) << bad;
    }
    // --help prints the usage and builds nothing (it once started a run over the shipped bank).
    const auto help = run_puzzles("--help --out " + (dir_ / "help.json").string());
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find("usage: chessence puzzles"), std::string::npos) << help.out;
    EXPECT_FALSE(fs::exists(dir_ / "help.json"));
    EXPECT_FALSE(fs::exists(dir_ / "help.json.part"));
    const auto missing = run_puzzles("--check " + (dir_ / "missing.json").string());
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.out.find("cannot read"), std::string::npos) << missing.out;
    std::ofstream(dir_ / "broken.json") << R"({"version":1,"puzzles":[{"game":"chesica"}]})";
    const auto broken = run_puzzles("--check " + (dir_ / "broken.json").string());
    EXPECT_EQ(broken.status, 1);
    EXPECT_NE(broken.out.find("puzzle 1"), std::string::npos) << broken.out;
    const auto unwritable = run_puzzles(std::string(tiny_options) + " --games chesica --out " +
                                        (dir_ / "no/such/dir.json").string());
    EXPECT_EQ(unwritable.status, 1);
    EXPECT_NE(unwritable.out.find("cannot write"), std::string::npos) << unwritable.out;
}

}  // namespace
