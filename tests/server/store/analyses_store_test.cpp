// Issue 25: a game's analysis on every store: written and replaced, read back, the queued ones
// listed oldest first, and one for an unknown game refused with its batch.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "server/storage_test_util.h"
#include "server/store/store_kinds.h"

namespace {

using server::AnalysisRecord;
using server::SaveAnalysis;
using server::Store;

void prepare_analysed_games(Store& store) {
    ASSERT_TRUE(store.insert_player({"p_a", "Ann", "hash-a", 1}).ok());
    ASSERT_TRUE(store.insert_player({"p_b", "Bob", "hash-b", 1}).ok());
    for (const auto* id : {"g_1", "g_2", "g_3"}) {
        server::GameRecord game;
        game.id = id;
        game.variant = "chesica";
        game.rules = "house";
        game.seats = {"p_a", "p_b"};
        ASSERT_TRUE(store.create_game(game).ok());
    }
}

class StoredAnalyses : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        auto opened = test::fresh_store(GetParam(), dir_);
        ASSERT_TRUE(opened.ok()) << opened.error();
        store_ = std::move(*opened);
        prepare_analysed_games(*store_);
    }
    storage_test::TempDir dir_;
    std::unique_ptr<Store> store_;
};

TEST_P(StoredAnalyses, SavedReplacedAndListed) {
    auto none = store_->analysis("g_1");
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->has_value());
    ASSERT_TRUE(store_->commit_sync({SaveAnalysis{{"g_2", "queued", "", 20}}}).ok());
    ASSERT_TRUE(store_->commit_sync({SaveAnalysis{{"g_1", "queued", "", 10}}}).ok());
    ASSERT_TRUE(store_->commit_sync({SaveAnalysis{{"g_3", "queued", "", 30}}}).ok());
    auto queued = store_->queued_analyses();
    ASSERT_TRUE(queued.ok()) << queued.error();
    ASSERT_EQ(queued->size(), 3u);
    EXPECT_EQ((*queued)[0].game_id, "g_1");  // oldest first
    EXPECT_EQ((*queued)[1].game_id, "g_2");
    const std::string text = R"({"status":"done","plies":[]})";
    ASSERT_TRUE(store_->commit_sync({SaveAnalysis{{"g_1", "done", text, 40}}}).ok());
    ASSERT_TRUE(store_->commit_sync({SaveAnalysis{{"g_3", "failed", "", 41}}}).ok());
    const auto done = store_->analysis("g_1");
    ASSERT_TRUE(done.ok() && done->has_value());
    EXPECT_EQ(**done, (AnalysisRecord{"g_1", "done", text, 40}));
    queued = store_->queued_analyses();
    ASSERT_TRUE(queued.ok());
    ASSERT_EQ(queued->size(), 1u);
    EXPECT_EQ(queued->front().game_id, "g_2");
}

TEST_P(StoredAnalyses, UnknownGameFailsWithItsBatch) {
    const auto failed = store_->commit_sync(
        {SaveAnalysis{{"g_1", "queued", "", 1}}, SaveAnalysis{{"g_none", "queued", "", 1}}});
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.error().find("g_none"), std::string::npos) << failed.error();
    const auto kept = store_->analysis("g_1");
    ASSERT_TRUE(kept.ok());
    EXPECT_FALSE(kept->has_value());  // all or nothing
}

INSTANTIATE_TEST_SUITE_P(AllStores, StoredAnalyses, ::testing::ValuesIn(test::store_kinds),
                         [](const auto& info) { return info.param; });

}  // namespace
