// The puzzle bank the server ships (puzzles/bank.json, issue 25): it parses (so every puzzle's
// position loads and every move of its solution is legal in turn), it has puzzles of every game,
// and every puzzle is what the API's schema says. That each is still a puzzle (its first move the
// only one that wins, proved again by the finder with the settings the bank was made with) is the
// suite's puzzle_bank_check: `chessence puzzles --check puzzles/bank.json` (tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "protocol/puzzles.h"
#include "protocol/schema_validator.h"

namespace {

using nlohmann::json;

protocol::PuzzleBank shipped_bank() {
    std::ifstream file(std::string(CHESSENCE_SOURCE_DIR) + "/puzzles/bank.json", std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_TRUE(file.good()) << "cannot read puzzles/bank.json";
    auto bank = protocol::parse_puzzle_bank(text.str());
    EXPECT_TRUE(bank.ok()) << bank.error();
    return bank.ok() ? std::move(bank).value() : protocol::PuzzleBank{};
}

TEST(ShippedPuzzleBank, ParsesWithAHundredPuzzlesOfEachGame) {
    const auto bank = shipped_bank();
    std::map<core::VariantId, std::size_t> count;
    for (const auto& puzzle : bank.puzzles) {
        ++count[puzzle.game];
    }
    for (const auto game :
         {core::VariantId::chessence, core::VariantId::chesica, core::VariantId::sniderman}) {
        EXPECT_GE(count[game], 100u) << core::variant_name(game);
    }
}

// Every puzzle is what GET /api/puzzles/… answers: docs/schema/http/puzzle.json.
TEST(ShippedPuzzleBank, EveryPuzzleMatchesTheApisSchema) {
    schema::Validator validator(schema::protocol_schema_root());
    const auto bank = shipped_bank();
    ASSERT_FALSE(bank.puzzles.empty());
    for (const auto& puzzle : bank.puzzles) {
        const auto problems = validator.validate(protocol::puzzle_json(puzzle), "http/puzzle.json");
        EXPECT_TRUE(problems.empty()) << puzzle.id << ": " << problems.front();
    }
}

}  // namespace
