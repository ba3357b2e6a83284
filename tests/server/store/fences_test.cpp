// Fencing numbers (issue 27, fences.h) on every store: a claim sets a game's fence and every read
// shows it; a batch whose CheckFence is older than the stored fence is refused whole, with an error
// is_fenced recognises as the commit handler receives it; an older claim is fenced, the same one is
// fine; an unknown game is an error that is not "fenced". What only PostgreSQL can show (nodes on
// one database) is in postgres_fences_test.cpp.
#include "server/store/fences.h"

#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <string>

#include "server/storage_test_util.h"
#include "server/store/store_kinds.h"

namespace fences_test {
namespace {

using server::AppendEvents;
using server::CheckFence;
using server::ClaimGame;
using server::GameRecord;
using server::Store;

TEST(Fences, TheErrorNamesTheGameAndBothFences) {
    const auto error = server::fenced_error("g_x", 7, 5);
    EXPECT_EQ(error, "fenced: game g_x was claimed with fence 7, this node holds 5");
    EXPECT_TRUE(server::is_fenced(error));
}

TEST(Fences, OnlyAnErrorThatStartsWithThePrefixIsFenced) {
    EXPECT_FALSE(server::is_fenced(""));
    EXPECT_FALSE(server::is_fenced("append_event: no such game g_1"));
    EXPECT_FALSE(server::is_fenced("fenced"));
    // Another batch of a group that failed as a whole: not fenced itself.
    EXPECT_FALSE(server::is_fenced("rolled back with the transaction, which failed: " +
                                   server::fenced_error("g_x", 7, 5)));
}

GameRecord fenced_game(const std::string& id, std::int64_t fence = 0) {
    GameRecord g;
    g.id = id;
    g.variant = "chessence";
    g.rules = "house";
    g.seats = {"p_a", "p_b"};
    g.created_at = 1700000100;
    g.fence = fence;
    return g;
}

class StoreFences : public ::testing::TestWithParam<std::string> {
protected:
    void SetUp() override {
        auto opened = test::fresh_store(GetParam(), dir_);
        ASSERT_TRUE(opened.ok()) << opened.error();
        store_ = std::move(*opened);
        ASSERT_TRUE(store_->insert_player({"p_a", "Ann", "hash-a", 1}).ok());
        ASSERT_TRUE(store_->insert_player({"p_b", "Bob", "hash-b", 1}).ok());
        ASSERT_TRUE(store_->create_game(fenced_game("g_1")).ok());
    }
    std::int64_t fence_of(const std::string& game_id) {
        const auto game = store_->game(game_id);
        EXPECT_TRUE(game.ok() && game->has_value()) << (game.ok() ? "no game" : game.error());
        return game.ok() && game->has_value() ? (*game)->fence : -1;
    }
    // The outcome of `batch` as its commit handler receives it.
    core::Status commit_and_wait(server::WriteBatch batch) {
        std::promise<core::Status> outcome;
        store_->commit(std::move(batch),
                       [&outcome](core::Status status) { outcome.set_value(std::move(status)); });
        return outcome.get_future().get();
    }

    storage_test::TempDir dir_;
    std::unique_ptr<Store> store_;
};

TEST_P(StoreFences, AClaimSetsTheFenceAndEveryReadShowsIt) {
    EXPECT_EQ(fence_of("g_1"), 0) << "never claimed";
    ASSERT_TRUE(store_->commit_sync({ClaimGame{"g_1", 3}}).ok());
    EXPECT_EQ(fence_of("g_1"), 3);
    const auto unfinished = store_->unfinished_games();
    ASSERT_TRUE(unfinished.ok()) << unfinished.error();
    ASSERT_EQ(unfinished->size(), 1u);
    EXPECT_EQ(unfinished->front().fence, 3);
    ASSERT_TRUE(store_->finish_game("g_1", R"({"winner":"white","reason":"resign"})", 5).ok());
    server::GameQuery query;
    query.player_id = "p_a";
    query.limit = 10;
    const auto found = store_->find_games(query);
    ASSERT_TRUE(found.ok()) << found.error();
    ASSERT_EQ(found->size(), 1u);
    EXPECT_EQ(found->front().fence, 3);
}

TEST_P(StoreFences, CreateGameKeepsTheFence) {
    ASSERT_TRUE(store_->create_game(fenced_game("g_2", 4)).ok());
    EXPECT_EQ(fence_of("g_2"), 4);
    EXPECT_TRUE(server::is_fenced(commit_and_wait({CheckFence{"g_2", 3}}).error()));
    EXPECT_TRUE(commit_and_wait({CheckFence{"g_2", 4}}).ok());
}

TEST_P(StoreFences, ABatchWithAnOlderFenceIsRefusedWhole) {
    ASSERT_TRUE(store_->commit_sync({ClaimGame{"g_1", 5}}).ok());
    const auto refused =
        commit_and_wait({CheckFence{"g_1", 4}, AppendEvents{"g_1", 1, {R"({"n":1})"}}});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error(), server::fenced_error("g_1", 5, 4));
    EXPECT_TRUE(server::is_fenced(refused.error()));
    EXPECT_TRUE(store_->events("g_1").value().empty()) << "nothing of the batch was written";

    EXPECT_TRUE(
        commit_and_wait({CheckFence{"g_1", 5}, AppendEvents{"g_1", 1, {R"({"n":1})"}}}).ok())
        << "the owner's own fence passes";
    EXPECT_EQ(store_->events("g_1").value().size(), 1u);
    EXPECT_EQ(fence_of("g_1"), 5) << "a check writes nothing";
}

// Batches queued together: the fenced one fails alone, with its own error as the handler gets it.
TEST_P(StoreFences, AFencedBatchFailsAloneInItsGroup) {
    ASSERT_TRUE(store_->commit_sync({ClaimGame{"g_1", 2}}).ok());
    std::vector<std::promise<core::Status>> outcomes(3);
    const server::WriteBatch batches[] = {
        {CheckFence{"g_1", 2}, AppendEvents{"g_1", 1, {R"({"n":1})"}}},
        {CheckFence{"g_1", 1}, AppendEvents{"g_1", 2, {R"({"n":2})"}}},
        {CheckFence{"g_1", 2}, AppendEvents{"g_1", 2, {R"({"n":3})"}}},
    };
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        store_->commit(batches[i],
                       [&outcomes, i](core::Status status) { outcomes[i].set_value(status); });
    }
    EXPECT_TRUE(outcomes[0].get_future().get().ok());
    const auto fenced = outcomes[1].get_future().get();
    ASSERT_FALSE(fenced.ok());
    EXPECT_TRUE(server::is_fenced(fenced.error())) << fenced.error();
    EXPECT_TRUE(outcomes[2].get_future().get().ok());
    const auto events = store_->events("g_1").value();
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1].json, R"({"n":3})");
}

TEST_P(StoreFences, AnOlderClaimIsFencedTheSameOrANewerOneIsFine) {
    ASSERT_TRUE(store_->commit_sync({ClaimGame{"g_1", 7}}).ok());
    const auto older = commit_and_wait({ClaimGame{"g_1", 5}});
    ASSERT_FALSE(older.ok());
    EXPECT_EQ(older.error(), server::fenced_error("g_1", 7, 5));
    EXPECT_EQ(fence_of("g_1"), 7);
    EXPECT_TRUE(commit_and_wait({ClaimGame{"g_1", 7}}).ok()) << "the same claim again";
    EXPECT_EQ(fence_of("g_1"), 7);
    EXPECT_TRUE(commit_and_wait({ClaimGame{"g_1", 8}}).ok());
    EXPECT_EQ(fence_of("g_1"), 8);
}

TEST_P(StoreFences, AnUnknownGameIsAnErrorThatIsNotFenced) {
    for (const auto& batch : {server::WriteBatch{ClaimGame{"g_none", 1}},
                              server::WriteBatch{CheckFence{"g_none", 1}}}) {
        const auto failed = commit_and_wait(batch);
        ASSERT_FALSE(failed.ok());
        EXPECT_NE(failed.error().find("no such game g_none"), std::string::npos) << failed.error();
        EXPECT_FALSE(server::is_fenced(failed.error())) << failed.error();
    }
}

// Store::claim_game (a claim outside the writer's group on PostgreSQL, commit_sync elsewhere)
// keeps ClaimGame's contract.
TEST_P(StoreFences, ClaimGameKeepsTheContractOfAClaim) {
    ASSERT_TRUE(store_->claim_game({"g_1", 7}).ok());
    EXPECT_EQ(fence_of("g_1"), 7);
    const auto older = store_->claim_game({"g_1", 5});
    ASSERT_FALSE(older.ok());
    EXPECT_EQ(older.error(), server::fenced_error("g_1", 7, 5));
    EXPECT_TRUE(store_->claim_game({"g_1", 7}).ok()) << "the same claim again";
    EXPECT_TRUE(store_->claim_game({"g_1", 8}).ok());
    EXPECT_EQ(fence_of("g_1"), 8);
    const auto unknown = store_->claim_game({"g_none", 1});
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().find("no such game g_none"), std::string::npos) << unknown.error();
    EXPECT_FALSE(server::is_fenced(unknown.error())) << unknown.error();
}

// A claim is undone with the rest of a batch that fails after it.
TEST_P(StoreFences, AClaimInAFailedBatchIsRolledBack) {
    ASSERT_TRUE(store_->commit_sync({ClaimGame{"g_1", 1}}).ok());
    const auto failed =
        commit_and_wait({ClaimGame{"g_1", 9}, AppendEvents{"g_1", 5, {R"({"n":5})"}}});
    ASSERT_FALSE(failed.ok());
    EXPECT_FALSE(server::is_fenced(failed.error())) << failed.error();
    EXPECT_EQ(fence_of("g_1"), 1);
}

INSTANTIATE_TEST_SUITE_P(AllStores, StoreFences, ::testing::ValuesIn(test::store_kinds),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace fences_test
