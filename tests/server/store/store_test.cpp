// What Store::commit counts around every store's own commit_batch: batches in flight, started and
// failed, a throwing commit_batch included, however many stores the process holds.
#include "server/store/store.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "server/store/memory_store.h"
#include "server/throwing_store.h"

namespace {

TEST(StoreCounts, FailedBatchesAreCounted) {
    server::MemoryStore store;
    EXPECT_TRUE(store.insert_player({"p_1", "Ann", "hash1", 5}).ok());
    EXPECT_EQ(store.commits_failed(), 0u);
    EXPECT_FALSE(store.rename_player("p_nobody", "Bob").ok());
    EXPECT_EQ(store.commits_failed(), 1u);
    EXPECT_EQ(store.commits_started(), 2u);
    EXPECT_EQ(store.commits_in_flight(), 0u);
}

TEST(StoreCounts, AThrowingCommitIsCountedOutAfterAnotherStoresBatches) {
    // The first store's handler runs on this thread, as a MemoryStore's does.
    server::MemoryStore first;
    EXPECT_TRUE(first.insert_player({"p_1", "Ann", "hash1", 5}).ok());
    test::ThrowingStore second;
    second.fail_commits = 1;
    EXPECT_THROW(
        second.commit({server::InsertPlayer{{"p_2", "Bob", "hash2", 5}}}, [](core::Status) {}),
        std::runtime_error);
    EXPECT_EQ(second.commits_in_flight(), 0u) << "a drain would wait for it forever";
    EXPECT_EQ(second.commits_failed(), 1u);
}

}  // namespace
