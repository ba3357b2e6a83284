// Issue 25: a game's analysis on every store: written and replaced, read back, the queued ones
// listed oldest first, and one for an unknown game refused with its batch. Issue 42: a claim
// (SaveAnalysis "queued") is written once — over nothing, a failed analysis or the claim of the
// run it names — and read back with its claiming run's alive_at; seeks keep their node and run,
// and a gone node's are deleted together.
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

// A claim of `run` on `node` with progress `done` of 5, over the claim of run `taken_from`.
SaveAnalysis claim_of(const std::string& node, std::int64_t run, std::int64_t done,
                      std::int64_t taken_from) {
    AnalysisRecord claim{"g_1", "queued", "", 50};
    claim.node = node;
    claim.run = run;
    claim.positions_done = done;
    claim.positions_total = 5;
    return SaveAnalysis{claim, taken_from};
}

TEST_P(StoredAnalyses, AClaimIsWrittenOnceAndTakenOverOnlyFromTheRunItNames) {
    ASSERT_TRUE(store_->commit_sync({server::RecordRun{{1000, 4000}}}).ok());
    ASSERT_TRUE(store_->commit_sync({claim_of("node-a", 1000, 0, 0)}).ok());
    // Node B's claim, racing: nothing written, and the batch still succeeds.
    ASSERT_TRUE(store_->commit_sync({claim_of("node-b", 2000, 0, 0)}).ok());
    auto held = store_->analysis("g_1");
    ASSERT_TRUE(held.ok() && held->has_value()) << (held.ok() ? "none" : held.error());
    EXPECT_EQ((*held)->node, "node-a");
    EXPECT_EQ((*held)->run, 1000);
    EXPECT_EQ((*held)->positions_total, 5);
    EXPECT_EQ((*held)->run_alive_at, 4000);  // read from the runs
    // Its own progress, over its own claim.
    ASSERT_TRUE(store_->commit_sync({claim_of("node-a", 1000, 3, 1000)}).ok());
    EXPECT_EQ((*store_->analysis("g_1"))->positions_done, 3);
    // Taken over from run 1000 (dead, say): now B's, whose run the store does not know.
    ASSERT_TRUE(store_->commit_sync({claim_of("node-b", 2000, 0, 1000)}).ok());
    held = store_->analysis("g_1");
    EXPECT_EQ((*held)->run, 2000);
    EXPECT_EQ((*held)->run_alive_at, 0);
    EXPECT_EQ((*held)->positions_done, 0);
    // A's late progress changes nothing now.
    ASSERT_TRUE(store_->commit_sync({claim_of("node-a", 1000, 4, 1000)}).ok());
    EXPECT_EQ((*store_->analysis("g_1"))->run, 2000);
    const auto queued = store_->queued_analyses();
    ASSERT_TRUE(queued.ok() && queued->size() == 1u);
    EXPECT_EQ(queued->front().node, "node-b");
    // Done: no claim writes over it; failed: the next claim does.
    ASSERT_TRUE(store_->commit_sync({SaveAnalysis{{"g_1", "done", "{}", 60}}}).ok());
    ASSERT_TRUE(store_->commit_sync({claim_of("node-c", 3000, 0, 0)}).ok());
    EXPECT_EQ((*store_->analysis("g_1"))->status, "done");
    ASSERT_TRUE(store_->commit_sync({SaveAnalysis{{"g_1", "failed", "", 61}}}).ok());
    ASSERT_TRUE(store_->commit_sync({claim_of("node-c", 3000, 0, 0)}).ok());
    EXPECT_EQ((*store_->analysis("g_1"))->status, "queued");
    EXPECT_EQ((*store_->analysis("g_1"))->node, "node-c");
}

TEST_P(StoredAnalyses, SeeksKeepTheirNodeAndAGoneNodesGoTogether) {
    ASSERT_TRUE(store_->save_seek({"s_1", "{}", "node-a", 1000}).ok());
    ASSERT_TRUE(store_->save_seek({"s_2", "{}", "node-b", 2000}).ok());
    ASSERT_TRUE(store_->save_seek({"s_3", "{}", "node-a", 1000}).ok());
    ASSERT_TRUE(store_->commit_sync({server::DeleteSeek{"", "node-a"}}).ok());
    const auto seeks = store_->seeks();
    ASSERT_TRUE(seeks.ok()) << seeks.error();
    ASSERT_EQ(seeks->size(), 1u);
    EXPECT_EQ(seeks->front().id, "s_2");
    EXPECT_EQ(seeks->front().node, "node-b");
    EXPECT_EQ(seeks->front().run, 2000);
}

INSTANTIATE_TEST_SUITE_P(AllStores, StoredAnalyses, ::testing::ValuesIn(test::store_kinds),
                         [](const auto& info) { return info.param; });

}  // namespace
