// The puzzle bank the server ships (puzzles/bank.json, issue 25): it parses (so every puzzle's
// position loads and every move of its solution is legal in turn), it has puzzles of every game,
// and a sample of them, proved again by the finder with the settings the bank was made with, is
// still the same puzzle: the first move is the only one that wins. The whole bank is proved again
// by `chessence puzzles --check puzzles/bank.json` (docs/puzzles.md), too slow for the suite.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "core/puzzles/finder.h"
#include "protocol/puzzles.h"
#include "protocol/schema_validator.h"

namespace {

using nlohmann::json;

constexpr std::size_t bank_sample_every = 25;  // puzzles proved again: every 25th of each game

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

TEST(ShippedPuzzleBank, ASampleIsProvedAgain) {
    const auto bank = shipped_bank();
    const json& settings = bank.settings;
    std::map<core::VariantId, std::size_t> seen;
    std::size_t proved = 0;
    for (const auto& puzzle : bank.puzzles) {
        if (seen[puzzle.game]++ % bank_sample_every != 0) {
            continue;
        }
        const auto game = std::string(core::variant_name(puzzle.game));
        core::puzzles::FinderSettings finder_settings;
        finder_settings.nodes = settings.at("nodes").get<std::uint64_t>();
        finder_settings.screen_nodes = settings.at("screen_nodes").get<std::uint64_t>();
        finder_settings.line_plies = settings.at("line_plies").get<int>();
        finder_settings.win_cp = settings.at("win_cp").value(game, 0);
        finder_settings.gap_cp = settings.at("gap_cp").value(game, 0);
        core::puzzles::Finder finder(finder_settings);
        const auto verdict = finder.examine({puzzle.game, puzzle.rules, puzzle.fen, puzzle.object});
        ASSERT_TRUE(verdict.ok()) << puzzle.id << ": " << verdict.error();
        ASSERT_TRUE(verdict->puzzle) << puzzle.id << " " << puzzle.fen << ": rejection "
                                     << static_cast<int>(verdict->rejection);
        EXPECT_EQ(*verdict->puzzle, puzzle) << puzzle.id;
        ++proved;
    }
    EXPECT_GE(proved, 12u);
}

}  // namespace
