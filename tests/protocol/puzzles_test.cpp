// The puzzle bank's JSON (protocol/puzzles.h): a puzzle both ways, every check of parse_puzzle,
// and the bank file's text.
#include "protocol/puzzles.h"

#include <gtest/gtest.h>

#include "core/engine/score.h"

namespace {

using core::puzzles::Puzzle;
using nlohmann::json;

Puzzle chessence_mate() {
    Puzzle p;
    p.game = core::VariantId::chessence;
    p.fen = "km4/5*/1mm1*1/2*3/m*1M*1/3*2/1*2M1/*3M1/5K[] b 1 26";
    p.to_move = core::Side::second;
    p.solution = {"c7xd5", "e2-c2", "b7-c9", "e3-d1", "c9-c7"};
    p.proof.mate_in = 4;
    p.proof.best_cp = core::engine::mate_score - 7;
    p.proof.second_cp = 300;
    p.proof.nodes = 1'000'000;
    p.id = core::puzzles::puzzle_id(p.game, p.rules, p.fen, 0);
    return p;
}

Puzzle chesica_material() {
    Puzzle p;
    p.game = core::VariantId::chesica;
    p.fen = "8/8/8/3q4/3Q3q/8/Q6Q/8 b 0 35";
    p.to_move = core::Side::second;
    p.solution = {"d5xd4", "a2-b3", "d4-e3", "b3-b4", "e3-f2"};
    p.proof.best_cp = 497;
    p.proof.second_cp = 101;
    p.proof.nodes = 1'000'000;
    p.id = core::puzzles::puzzle_id(p.game, p.rules, p.fen, 0);
    return p;
}

Puzzle sniderman_deal() {
    Puzzle p;
    p.game = core::VariantId::sniderman;
    p.fen = "bRnn/BQBr/NRKq/krbN 1";
    p.to_move = core::Side::first;
    p.object = 2;
    p.solution = {"c1xb2", "a1xa2", "a3xb2", "a2xb2", "d1xb2"};
    p.proof.exact = true;
    p.id = core::puzzles::puzzle_id(p.game, p.rules, p.fen, p.object);
    return p;
}

// The error parse_puzzle gives for `value` (the test fails if it is accepted).
std::string puzzle_error(const json& value) {
    const auto parsed = protocol::parse_puzzle(value);
    if (parsed.ok()) {
        ADD_FAILURE() << value.dump() << " was accepted";
        return "";
    }
    return parsed.error();
}

TEST(PuzzleJson, ReadsBackWhatItWrites) {
    for (const Puzzle& puzzle : {chessence_mate(), chesica_material(), sniderman_deal()}) {
        const auto read = protocol::parse_puzzle(protocol::puzzle_json(puzzle));
        ASSERT_TRUE(read.ok()) << read.error();
        EXPECT_EQ(*read, puzzle) << protocol::puzzle_json(puzzle).dump();
    }
}

TEST(PuzzleJson, NamesTheGameSideAndObject) {
    const json sniderman = protocol::puzzle_json(sniderman_deal());
    EXPECT_EQ(sniderman["game"], "sniderman");
    EXPECT_EQ(sniderman["to_move"], "odd");
    EXPECT_EQ(sniderman["object"], 2);
    EXPECT_EQ(sniderman["object_text"],
              "ODD wins if the last piece captured stood on a red square");
    EXPECT_EQ(sniderman["eval"], json({{"result", "win"}}));
    EXPECT_FALSE(sniderman.contains("second"));

    const json chessence = protocol::puzzle_json(chessence_mate());
    EXPECT_EQ(chessence["to_move"], "black");
    EXPECT_EQ(chessence["rules"], "house");
    EXPECT_FALSE(chessence.contains("object"));
    EXPECT_EQ(chessence["eval"], json({{"mate", 4}}));
    EXPECT_EQ(chessence["second"], json({{"cp", 300}}));
    EXPECT_EQ(protocol::puzzle_json(chesica_material())["eval"], json({{"cp", 497}}));
}

TEST(PuzzleJson, RefusesWhatDoesNotFit) {
    const json good = protocol::puzzle_json(chessence_mate());
    const auto with = [&](const char* field, const json& value) {
        json changed = good;
        changed[field] = value;
        return changed;
    };
    EXPECT_NE(puzzle_error(with("id", "000000000000")).find("`id` must be"), std::string::npos);
    EXPECT_NE(puzzle_error(with("game", "chess")).find("`game`"), std::string::npos);
    EXPECT_NE(puzzle_error(with("rules", "fast")).find("`rules`"), std::string::npos);
    EXPECT_NE(puzzle_error(with("to_move", "odd")).find("`to_move`"), std::string::npos);
    EXPECT_NE(puzzle_error(with("to_move", "white")).find("`to_move`"), std::string::npos);
    EXPECT_NE(puzzle_error(with("object", 3)).find("`object`"), std::string::npos);
    EXPECT_NE(puzzle_error(with("solution", json::array())).find("`solution`"), std::string::npos);
    EXPECT_NE(puzzle_error(with("solution", {"c7xd5", "a1-a2"})).find("solution move 2"),
              std::string::npos);
    EXPECT_NE(puzzle_error(with("solution", {"c7-d5"})).find("as the game writes it"),
              std::string::npos);
    EXPECT_NE(puzzle_error(with("fen", "km4 b 1 26")).find("`fen`"), std::string::npos);
    EXPECT_NE(puzzle_error(with("eval", json::object())).find("`eval`"), std::string::npos);
    EXPECT_NE(puzzle_error(with("eval", {{"mate", 0}})).find("`eval`"), std::string::npos);
    EXPECT_NE(puzzle_error(with("second", 5)).find("`second`"), std::string::npos);
    // A position where the side to move has already lost.
    json over = with("fen", "k5/mm3*/4*1/2*3/1*2*1/3*2/1*4/*5/M4K[] w 0 1");
    over["to_move"] = "white";
    EXPECT_NE(puzzle_error(over).find("over"), std::string::npos);
    EXPECT_NE(puzzle_error(json::array()).find("object"), std::string::npos);

    json sniderman = protocol::puzzle_json(sniderman_deal());
    sniderman.erase("object");
    EXPECT_NE(puzzle_error(sniderman).find("`object` must be 1 to 10"), std::string::npos);
    sniderman = protocol::puzzle_json(sniderman_deal());
    sniderman["eval"] = {{"cp", 100}};
    EXPECT_NE(puzzle_error(sniderman).find("`eval`"), std::string::npos);
}

TEST(PuzzleBankText, ReadsBackWhatItWrites) {
    protocol::PuzzleBank bank;
    bank.puzzles = {chessence_mate(), chesica_material(), sniderman_deal()};
    bank.settings = {{"seed", 7}};
    const std::string text = protocol::puzzle_bank_text(bank);
    EXPECT_TRUE(json::accept(text));
    // The version, the settings, "puzzles":[, one puzzle a line, the end.
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 7);
    const auto read = protocol::parse_puzzle_bank(text);
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(read->puzzles, bank.puzzles);
    EXPECT_EQ(read->settings, bank.settings);
}

TEST(PuzzleBankText, RefusesABadBank) {
    EXPECT_FALSE(protocol::parse_puzzle_bank("not json").ok());
    EXPECT_FALSE(protocol::parse_puzzle_bank("[]").ok());
    EXPECT_NE(protocol::parse_puzzle_bank(R"({"version":2,"puzzles":[]})").error().find("version"),
              std::string::npos);
    EXPECT_NE(protocol::parse_puzzle_bank(R"({"version":1})").error().find("puzzles"),
              std::string::npos);
    EXPECT_TRUE(protocol::parse_puzzle_bank(R"({"version":1,"puzzles":[]})").ok());

    json twice = {
        {"version", 1},
        {"puzzles",
         {protocol::puzzle_json(sniderman_deal()), protocol::puzzle_json(sniderman_deal())}}};
    EXPECT_NE(protocol::parse_puzzle_bank(twice.dump()).error().find("used twice"),
              std::string::npos);
    json bad = {
        {"version", 1},
        {"puzzles",
         {protocol::puzzle_json(sniderman_deal()), protocol::puzzle_json(chesica_material())}}};
    bad["puzzles"][1]["solution"] = {"a1-a1"};
    const auto error = protocol::parse_puzzle_bank(bad.dump()).error();
    EXPECT_NE(error.find("puzzle 2 (" + chesica_material().id + ")"), std::string::npos) << error;
}

}  // namespace
