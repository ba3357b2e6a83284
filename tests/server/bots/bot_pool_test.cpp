#include "server/bots/bot_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>

#include "core/game.h"

namespace {

// A Chessence job at the start position that reports to `answers`.
server::BotJob pool_test_job(std::atomic<int>& answers, int level = 1,
                             std::chrono::milliseconds move_time = std::chrono::milliseconds(20)) {
    server::BotJob job;
    auto game = core::make_game(core::VariantId::chessence, core::GameOptions{});
    job.game = std::move(*game);
    job.level = level;
    job.move_time = move_time;
    job.seed = 7;
    job.done = [&answers](server::BotAnswer answer) {
        if (!answer.error && !answer.move.empty()) {
            ++answers;
        }
    };
    return job;
}

TEST(BotPool, AnswersAJob) {
    std::atomic<int> answers{0};
    server::BotPool pool(1, 4);
    ASSERT_TRUE(pool.submit(pool_test_job(answers)));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (answers.load() == 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_EQ(answers.load(), 1);
}

// The queue is bounded: past it (or with no thread at all) a job is refused, not kept.
TEST(BotPool, RefusesJobsPastItsQueueOrWithoutThreads) {
    std::atomic<int> answers{0};
    server::BotPool pool(1, 2);
    pool.hold(true);
    EXPECT_TRUE(pool.submit(pool_test_job(answers)));
    EXPECT_TRUE(pool.has_room());
    EXPECT_TRUE(pool.submit(pool_test_job(answers)));
    EXPECT_FALSE(pool.has_room());
    EXPECT_FALSE(pool.submit(pool_test_job(answers)));
    EXPECT_EQ(pool.queued(), 2u);

    server::BotPool none(0, 8);
    EXPECT_FALSE(none.has_room());
    EXPECT_FALSE(none.submit(pool_test_job(answers)));
}

// Stopping ends a long level-8 search at once, drops the jobs that wait, and calls no callback.
TEST(BotPool, StopEndsSearchesAndDropsWaitingJobs) {
    std::atomic<int> answers{0};
    auto pool = std::make_unique<server::BotPool>(1, 4);
    ASSERT_TRUE(pool->submit(pool_test_job(answers, 8, std::chrono::minutes(10))));
    ASSERT_TRUE(pool->submit(pool_test_job(answers, 8, std::chrono::minutes(10))));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (pool->queued() != 1 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_EQ(pool->queued(), 1u);  // one thinks, one waits
    auto stopped = std::async(std::launch::async, [&pool] { pool->stop(); });
    // Not a timing assertion: ten minutes of thinking would be a hang.
    ASSERT_EQ(stopped.wait_for(std::chrono::seconds(60)), std::future_status::ready);
    EXPECT_EQ(pool->queued(), 0u);
    EXPECT_FALSE(pool->submit(pool_test_job(answers)));
    EXPECT_EQ(answers.load(), 0);
}

}  // namespace
