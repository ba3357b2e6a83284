// Readiness without its thread: each round (check) is run by hand at a chosen time. A failed batch
// makes it try its harmless write, whose outcome decides; while unwritable it tries again every
// second; the store is read and Redis pinged every second; what fails first in /readyz's order is
// the answer.
#include "server/game/readiness.h"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "server/test_stores.h"

namespace {

using namespace std::chrono_literals;
using server::Readiness;
using Status = server::Readiness::Status;

// A batch the store refuses (fail_all): what a player's move meets on a full disk.
void refused_batch(test::ControlledStore& store) {
    store.fail_all = true;
    store.commit({server::RecordRun{{1, 2}}}, [](core::Status) {});
    store.fail_all = false;
}

// A write check whose outcome the test sets, counting its calls.
struct ScriptedWrite {
    core::Status next = core::ok_status();
    int calls = 0;
    Readiness::Check check() {
        return [this] {
            ++calls;
            return next;
        };
    }
};

TEST(Readiness, AFailedBatchMakesItTryAWriteWhoseOutcomeDecides) {
    test::ControlledStore store;
    ScriptedWrite write;
    Readiness readiness(store, write.check());
    const auto t0 = std::chrono::steady_clock::now();
    readiness.check(t0);
    EXPECT_TRUE(readiness.state().ready());
    EXPECT_EQ(write.calls, 0) << "nothing failed: nothing to try";

    refused_batch(store);
    write.next = core::make_error("disk full");
    readiness.check(t0 + 100ms);
    EXPECT_EQ(write.calls, 1);
    EXPECT_EQ(readiness.state().status, Status::store_unwritable);
    EXPECT_EQ(readiness.state().error, "disk full");

    readiness.check(t0 + 200ms);
    EXPECT_EQ(write.calls, 1) << "tried again a second later, not every round";
    readiness.check(t0 + 1100ms);
    EXPECT_EQ(write.calls, 2) << "while unwritable it tries again without any player's move";
    EXPECT_EQ(readiness.state().status, Status::store_unwritable);

    write.next = core::ok_status();
    readiness.check(t0 + 2100ms);
    EXPECT_EQ(write.calls, 3);
    EXPECT_TRUE(readiness.state().ready());
    EXPECT_EQ(readiness.state().error, "");
    readiness.check(t0 + 3100ms);
    EXPECT_EQ(write.calls, 3) << "ready and nothing failed since: nothing to try";
}

TEST(Readiness, ABatchRefusedForItsOwnReasonsLeavesItReady) {
    test::ControlledStore store;
    ScriptedWrite write;
    Readiness readiness(store, write.check());
    refused_batch(store);
    readiness.check(std::chrono::steady_clock::now());
    EXPECT_EQ(write.calls, 1);
    EXPECT_TRUE(readiness.state().ready()) << "the store takes a write: its writer is fine";
}

TEST(Readiness, AThrowingWriteCountsAsUnwritable) {
    test::ControlledStore store;
    Readiness readiness(store, []() -> core::Status { throw std::runtime_error("it threw"); });
    refused_batch(store);
    readiness.check(std::chrono::steady_clock::now());
    EXPECT_EQ(readiness.state().status, Status::store_unwritable);
    EXPECT_EQ(readiness.state().error, "it threw");
}

TEST(Readiness, TheStoreIsReadEverySecond) {
    test::ReadFailingStore store;
    Readiness readiness(store, [] { return core::ok_status(); });
    const auto t0 = std::chrono::steady_clock::now();
    readiness.check(t0);
    store.fail_reads = true;
    readiness.check(t0 + 500ms);
    EXPECT_TRUE(readiness.state().ready()) << "not read again yet";
    readiness.check(t0 + 1000ms);
    EXPECT_EQ(readiness.state().status, Status::store_unreachable);
    EXPECT_EQ(readiness.state().error, "test store: cannot read (check)");
    store.fail_reads = false;
    readiness.check(t0 + 2000ms);
    EXPECT_TRUE(readiness.state().ready());
}

TEST(Readiness, RedisIsPingedOnlyInClusterModeAndTheFirstFailureInOrderIsTheAnswer) {
    test::ReadFailingStore store;
    ScriptedWrite write;
    Readiness readiness(store, write.check());
    core::Status pong = core::make_error("redis: connection refused");
    int pings = 0;
    const auto t0 = std::chrono::steady_clock::now();
    readiness.check(t0);
    EXPECT_TRUE(readiness.state().ready()) << "no Redis to ping outside cluster mode";

    readiness.watch_redis([&] {
        ++pings;
        return pong;
    });
    readiness.check(t0 + 1000ms);
    EXPECT_EQ(pings, 1);
    EXPECT_EQ(readiness.state().status, Status::redis_unreachable);
    EXPECT_EQ(readiness.state().error, "redis: connection refused");
    EXPECT_EQ(Readiness::name(readiness.state().status), "redis_unreachable");

    store.fail_reads = true;
    readiness.check(t0 + 2000ms);
    EXPECT_EQ(readiness.state().status, Status::store_unreachable);
    store.throw_commits = 1;
    try {
        store.commit({server::RecordRun{{1, 2}}}, [](core::Status) {});
    } catch (const std::runtime_error&) {
        // counted as a failed batch all the same
    }
    write.next = core::make_error("read-only file system");
    readiness.check(t0 + 3000ms);
    EXPECT_EQ(readiness.state().status, Status::store_unwritable);
    EXPECT_EQ(Readiness::name(readiness.state().status), "store_unwritable");

    write.next = core::ok_status();
    store.fail_reads = false;
    pong = core::ok_status();
    readiness.check(t0 + 4000ms);
    EXPECT_TRUE(readiness.state().ready());
    EXPECT_EQ(Readiness::name(readiness.state().status), "ready");
}

}  // namespace

namespace {

// Issue 42: a writer that hangs fails nothing, so no failed batch tells readiness; the commits in
// flight that never finish do.
TEST(Readiness, AWriterThatFinishesNoCommitCountsAsUnwritableUntilItDoes) {
    test::ReadFailingStore store;
    ScriptedWrite write;
    Readiness readiness(store, write.check());
    EXPECT_EQ(store.stalled_for(), 0ms) << "nothing in flight";
    store.hold_commits = true;
    bool stored = false;
    store.commit({server::RecordRun{{1, 2}}}, [&](core::Status status) { stored = status.ok(); });
    std::this_thread::sleep_for(100ms);
    EXPECT_GE(store.stalled_for(), 100ms);
    EXPECT_TRUE(readiness.state().ready()) << "a commit may take a while";

    std::this_thread::sleep_for(server::readiness_stall);
    const auto state = readiness.state();
    EXPECT_EQ(state.status, Status::store_unwritable);
    EXPECT_NE(state.error.find("finished no commit"), std::string::npos) << state.error;
    EXPECT_EQ(write.calls, 0) << "known without a write of its own, which could hang too";

    store.hold_commits = false;
    EXPECT_EQ(store.release_held(), 1u);
    EXPECT_TRUE(stored);
    EXPECT_EQ(store.stalled_for(), 0ms);
    EXPECT_TRUE(readiness.state().ready());
}

}  // namespace
