// `chessence replay <variant> --record <file>`, run as a real process.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/game.h"
#include "core/record.h"

namespace {

using nlohmann::json;

struct Outcome {
    int exit_code = -1;
    std::string out;
    std::string err;
};

class RecordCli : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("chessence-record-cli-" + std::to_string(getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::string write(const std::string& name, const std::string& text) {
        const auto path = (dir_ / name).string();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }

    static std::string slurp(const std::filesystem::path& path) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }

    // Runs the chessence tool with `args` (already shell-quoted), standard input from `stdin_path`.
    Outcome chessence(const std::string& args, const std::string& stdin_path = "/dev/null") {
        const auto out = dir_ / "stdout";
        const auto err = dir_ / "stderr";
        const std::string command = std::string(CHESSENCE_BIN_DIR) + "/chessence " + args + " <" +
                                    stdin_path + " >" + out.string() + " 2>" + err.string();
        const int status = std::system(command.c_str());
        return Outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
    }

    std::filesystem::path dir_;
};

std::vector<json> json_lines(const std::string& text) {
    std::vector<json> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(json::parse(line, nullptr, false));
        EXPECT_FALSE(lines.back().is_discarded()) << line;
    }
    return lines;
}

// A game of `plies` moves picked deterministically from the legal ones.
std::unique_ptr<core::Game> wander(core::VariantId variant, const core::GameOptions& options,
                                   int plies) {
    auto game = core::make_game(variant, options);
    EXPECT_TRUE(game.ok()) << (game.ok() ? "" : game.error());
    if (!game.ok()) {
        return nullptr;
    }
    for (int ply = 0; ply < plies && !(*game)->outcome(); ++ply) {
        const auto legal = (*game)->legal_moves();
        (void)(*game)->play(legal[(static_cast<std::size_t>(ply) * 5 + 1) % legal.size()]);
    }
    return std::move(*game);
}

TEST_F(RecordCli, EachRecordGivesTheSameLineAsJsonLinesMode) {
    const auto from_start = wander(core::VariantId::chessence, {}, 24);
    core::GameOptions setup;
    setup.fen = "k5/m4*/4*1/2*3/1*M1*1/3*2/1*1M2/*5/5K[] w 0 1";
    const auto from_setup = wander(core::VariantId::chessence, setup, 10);
    ASSERT_TRUE(from_start && from_setup);

    core::Record first;
    first.tags = {{"Variant", "chessence"}, {"White", "Ann"}, {"Black", "Bob"}};
    first.moves = from_start->moves();
    core::Record second;
    second.tags = {{"Variant", "chessence"}, {"FEN", *setup.fen}};
    second.moves = from_setup->moves();
    const auto record_file = write("games.pgn", core::write_records({first, second}));

    const auto input =
        write("games.jsonl", json{{"moves", first.moves}}.dump() + "\n" +
                                 json{{"moves", second.moves}, {"fen", *setup.fen}}.dump() + "\n");
    const auto from_records = chessence("replay chessence --record " + record_file);
    const auto from_lines = chessence("replay chessence", input);
    EXPECT_EQ(from_records.exit_code, 0) << from_records.err;
    EXPECT_EQ(from_records.out, from_lines.out);

    const auto lines = json_lines(from_records.out);
    ASSERT_EQ(lines.size(), 2u);
    ASSERT_TRUE(lines[0].contains("plies")) << lines[0].dump();
    EXPECT_EQ(lines[0]["plies"].size(), first.moves.size() + 1);
    EXPECT_EQ(lines[0]["plies"].back()["fen"], from_start->fen());
    ASSERT_TRUE(lines[1].contains("plies")) << lines[1].dump();
    EXPECT_EQ(lines[1]["plies"].back()["fen"], from_setup->fen());
}

TEST_F(RecordCli, ClocksAreReadBackWithTheTimeControl) {
    const auto game = wander(core::VariantId::chesica, {}, 6);
    ASSERT_TRUE(game);
    core::Record timed;
    timed.tags = {{"Variant", "chesica"}, {"TimeControl", "180+2"}};
    timed.moves = game->moves();
    for (std::size_t i = 0; i < timed.moves.size(); ++i) {
        timed.clocks.push_back(180000 - static_cast<std::int64_t>(i) * 1500);
    }
    timed.clocks[1] = std::nullopt;
    core::Record plain;
    plain.tags = {{"Variant", "chesica"}};
    plain.moves = game->moves();
    const auto file = write("timed.pgn", core::write_records({timed, plain}));
    const auto replayed = chessence("replay chesica --record " + file);
    ASSERT_EQ(replayed.exit_code, 0) << replayed.err;
    const auto lines = json_lines(replayed.out);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0]["time_control"], "180+2");
    ASSERT_EQ(lines[0]["clocks"].size(), timed.moves.size());
    EXPECT_EQ(lines[0]["clocks"][0], 180000);
    EXPECT_TRUE(lines[0]["clocks"][1].is_null());
    EXPECT_EQ(lines[0]["clocks"][2], 177000);
    EXPECT_EQ(lines[0]["plies"], lines[1]["plies"]) << "the clocks change nothing of the replay";
    EXPECT_FALSE(lines[1].contains("clocks"));
    EXPECT_FALSE(lines[1].contains("time_control"));
}

TEST_F(RecordCli, SnidermanRoundsReplayWithTheirDealAndObject) {
    core::GameOptions deal;
    deal.fen = "qbnr/rnbk/KBNR/RNBQ 1";
    deal.object = 7;
    const auto round = wander(core::VariantId::sniderman, deal, 15);
    ASSERT_TRUE(round);
    ASSERT_TRUE(round->outcome().has_value()) << "a Sniderman round ends within 15 captures";
    core::Record r;
    r.tags = {{"Round", "1"}, {"Variant", "sniderman"}, {"FEN", *deal.fen}, {"Object", "7"}};
    r.moves = round->moves();
    r.result = *round->outcome()->winner == core::Side::first ? "1-0" : "0-1";
    const auto run =
        chessence("replay sniderman --record " + write("match.pgn", core::write_record(r)));
    EXPECT_EQ(run.exit_code, 0) << run.err;
    const auto lines = json_lines(run.out);
    ASSERT_EQ(lines.size(), 1u);
    ASSERT_TRUE(lines[0].contains("result")) << lines[0].dump();
    EXPECT_EQ(lines[0]["result"]["winner"], r.result == "1-0" ? "odd" : "even");
}

TEST_F(RecordCli, AnIllegalMoveIsReportedWithItsPly) {
    const auto record = write("bad.pgn", "[Variant \"chessence\"]\n\n1. e3-e4 a8-a7 2. e4-e9 *\n");
    const auto run = chessence("replay chessence --record " + record);
    EXPECT_EQ(run.exit_code, 0);
    const auto lines = json_lines(run.out);
    ASSERT_EQ(lines.size(), 1u);
    ASSERT_TRUE(lines[0].contains("error")) << lines[0].dump();
    EXPECT_EQ(lines[0]["error"]["ply"], 3);
    EXPECT_EQ(lines[0]["error"]["move"], "e4-e9");
}

TEST_F(RecordCli, ARecordOfAnotherVariantIsAnErrorLine) {
    const auto record =
        write("other.pgn", "[Variant \"chesica\"]\n\n1. c3-d4 *\n\n[Variant \"chessence\"]\n\n*\n");
    const auto run = chessence("replay chessence --record " + record);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    const auto lines = json_lines(run.out);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0]["error"]["message"], "the record is a chesica game, not chessence");
    EXPECT_EQ(lines[0]["error"]["ply"], 0);
    EXPECT_TRUE(lines[1].contains("plies")) << lines[1].dump();  // the chessence record replays
}

TEST_F(RecordCli, AMalformedFileIsReportedWithItsLineNumber) {
    const auto record = write("broken.pgn", "[Variant \"chessence\"]\n\n1. e3-e4 3. a8-a7 *\n");
    const auto run = chessence("replay chessence --record " + record);
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_TRUE(run.out.empty());
    EXPECT_NE(run.err.find("line 3: move number 3. out of sequence"), std::string::npos) << run.err;
}

TEST_F(RecordCli, AMissingFileIsReported) {
    const auto missing = (dir_ / "nowhere.pgn").string();
    const auto run = chessence("replay chessence --record " + missing);
    EXPECT_EQ(run.exit_code, 1);
    EXPECT_NE(run.err.find("cannot read record file '" + missing + "'"), std::string::npos)
        << run.err;
}

}  // namespace
