// The server's puzzles (server/puzzles/puzzle_collection.h): loading the bank file (a missing or
// bad one leaves the collection unavailable, saying why), and the daily, random and by-id picks.
#include "server/puzzles/puzzle_collection.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "server/puzzles/sample_puzzles.h"

namespace {

namespace fs = std::filesystem;
using core::VariantId;

class PuzzleCollectionFiles : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("chessence-puzzle-collection-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    std::string write(const std::string& name, const std::string& text) {
        std::ofstream(dir_ / name, std::ios::binary) << text;
        return (dir_ / name).string();
    }
    fs::path dir_;
};

TEST_F(PuzzleCollectionFiles, LoadsAValidBankByGame) {
    const auto path = write("bank.json", protocol::puzzle_bank_text(puzzle_samples::sample_bank()));
    const auto puzzles = server::load_puzzle_collection(path);
    ASSERT_TRUE(puzzles.available()) << puzzles.problem();
    EXPECT_EQ(puzzles.size(), 6u);
    for (const auto game : {VariantId::chessence, VariantId::chesica, VariantId::sniderman}) {
        ASSERT_EQ(puzzles.of(game).size(), 2u);
        EXPECT_LT(puzzles.of(game)[0].id, puzzles.of(game)[1].id);
        EXPECT_EQ(puzzles.of(game)[0].game, game);
    }
}

TEST_F(PuzzleCollectionFiles, AMissingOrBadFileLeavesNoPuzzlesAndSaysWhy) {
    const auto missing = server::load_puzzle_collection((dir_ / "none.json").string());
    EXPECT_FALSE(missing.available());
    EXPECT_NE(missing.problem().find("none.json"), std::string::npos) << missing.problem();
    EXPECT_EQ(missing.size(), 0u);

    const auto garbage = server::load_puzzle_collection(write("garbage.json", "{not json"));
    EXPECT_FALSE(garbage.available());
    EXPECT_NE(garbage.problem().find("not valid"), std::string::npos) << garbage.problem();

    auto bank = puzzle_samples::sample_bank();
    bank.puzzles[3].solution = {"a1-a1"};
    const auto bad =
        server::load_puzzle_collection(write("bad.json", protocol::puzzle_bank_text(bank)));
    EXPECT_FALSE(bad.available());
    EXPECT_NE(bad.problem().find("puzzle 4"), std::string::npos) << bad.problem();
    EXPECT_EQ(bad.size(), 0u);
}

server::PuzzleCollection sample_collection() {
    return server::PuzzleCollection(puzzle_samples::sample_bank());
}

TEST(PuzzleCollectionPicks, TheDailyPuzzleHoldsForADayAndGoesRoundTheBank) {
    const auto puzzles = sample_collection();
    const auto* today = puzzles.daily(VariantId::chesica, 20784);
    ASSERT_NE(today, nullptr);
    EXPECT_EQ(today, puzzles.daily(VariantId::chesica, 20784));
    EXPECT_NE(today, puzzles.daily(VariantId::chesica, 20785));
    EXPECT_EQ(today, puzzles.daily(VariantId::chesica, 20786));
    EXPECT_EQ(puzzles.daily(VariantId::chesica, -1), puzzles.daily(VariantId::chesica, 1));
    EXPECT_EQ(puzzles.daily(VariantId::sniderman, 3)->game, VariantId::sniderman);
}

TEST(PuzzleCollectionPicks, RandomLeavesOutTheExcludedUnlessNothingElseIsLeft) {
    const auto puzzles = sample_collection();
    const auto& chessence = puzzles.of(VariantId::chessence);
    std::set<std::string> seen;
    for (std::uint64_t r = 0; r < 8; ++r) {
        seen.insert(puzzles.random(VariantId::chessence, {}, r)->id);
        EXPECT_EQ(puzzles.random(VariantId::chessence, {chessence[0].id}, r)->id, chessence[1].id);
        const auto* any =
            puzzles.random(VariantId::chessence, {chessence[0].id, chessence[1].id}, r);
        ASSERT_NE(any, nullptr);
        EXPECT_EQ(any->game, VariantId::chessence);
    }
    EXPECT_EQ(seen.size(), 2u);
}

TEST(PuzzleCollectionPicks, FindsByIdWithinItsGame) {
    const auto puzzles = sample_collection();
    const auto& sniderman = puzzles.of(VariantId::sniderman);
    EXPECT_EQ(puzzles.find(VariantId::sniderman, sniderman[1].id), &sniderman[1]);
    EXPECT_EQ(puzzles.find(VariantId::chessence, sniderman[1].id), nullptr);
    EXPECT_EQ(puzzles.find(VariantId::sniderman, "000000000000"), nullptr);
    EXPECT_EQ(puzzles.find(VariantId::sniderman, ""), nullptr);
}

TEST(PuzzleCollectionPicks, AnEmptyGameHasNothingToPick) {
    auto bank = puzzle_samples::sample_bank();
    bank.puzzles.resize(2);  // Chessence only
    const server::PuzzleCollection puzzles(bank);
    EXPECT_TRUE(puzzles.available());
    EXPECT_EQ(puzzles.daily(VariantId::chesica, 1), nullptr);
    EXPECT_EQ(puzzles.random(VariantId::sniderman, {}, 1), nullptr);
    EXPECT_FALSE(server::PuzzleCollection::unavailable("gone").available());
}

}  // namespace
