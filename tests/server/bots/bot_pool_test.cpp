#include "server/bots/bot_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <string>
#include <vector>

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

// Background work of `steps` steps, each appending "step N" to `log` (after `gate`, if any, for
// the first step: the test opens it).
class LoggedWork final : public server::BackgroundWork {
public:
    LoggedWork(int steps, std::mutex& mutex, std::vector<std::string>& log,
               std::shared_future<void> gate = {})
        : steps_(steps), mutex_(mutex), log_(log), gate_(std::move(gate)) {}
    Step next_step() override {
        if (next_ >= steps_) {
            return {};
        }
        const int n = ++next_;
        return [this, n](const std::atomic<bool>&) {
            if (n == 1 && gate_.valid()) {
                started_.set_value();
                gate_.wait();
            }
            std::lock_guard lock(mutex_);
            log_.push_back("step " + std::to_string(n));
        };
    }
    std::future<void> first_started() { return started_.get_future(); }

private:
    int steps_;
    int next_ = 0;
    std::mutex& mutex_;
    std::vector<std::string>& log_;
    std::shared_future<void> gate_;
    std::promise<void> started_;
};

// A move job that appends "move" to `log`.
server::BotJob logged_move(std::mutex& mutex, std::vector<std::string>& log) {
    server::BotJob job;
    job.game = *core::make_game(core::VariantId::chesica, core::GameOptions{});
    job.level = 1;
    job.move_time = std::chrono::milliseconds(5);
    job.done = [&mutex, &log](server::BotAnswer) {
        std::lock_guard lock(mutex);
        log.push_back("move");
    };
    return job;
}

bool log_reaches(std::mutex& mutex, const std::vector<std::string>& log, std::size_t size) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
        {
            std::lock_guard lock(mutex);
            if (log.size() >= size) {
                return true;
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
}

// Issue 25: a move waiting is taken before any background step, even one queued earlier.
TEST(BotPool, MovesGoBeforeBackgroundWork) {
    std::mutex mutex;
    std::vector<std::string> log;
    server::BotPool pool(1, 4);
    pool.hold(true);
    ASSERT_TRUE(pool.submit_background(std::make_shared<LoggedWork>(2, mutex, log)));
    ASSERT_TRUE(pool.submit(logged_move(mutex, log)));
    EXPECT_EQ(pool.background_queued(), 1u);
    pool.hold(false);
    ASSERT_TRUE(log_reaches(mutex, log, 3));
    std::lock_guard lock(mutex);
    EXPECT_EQ(log, (std::vector<std::string>{"move", "step 1", "step 2"}));
}

// A move that comes while a step runs waits for that step only, not for the rest of the work.
TEST(BotPool, AMoveWaitsForOneStepAtMost) {
    std::mutex mutex;
    std::vector<std::string> log;
    std::promise<void> open;
    server::BotPool pool(1, 4);
    auto work = std::make_shared<LoggedWork>(3, mutex, log, open.get_future().share());
    auto first_started = work->first_started();
    ASSERT_TRUE(pool.submit_background(work));
    first_started.wait();  // step 1 runs, held at its gate
    ASSERT_TRUE(pool.submit(logged_move(mutex, log)));
    open.set_value();
    ASSERT_TRUE(log_reaches(mutex, log, 4));
    std::lock_guard lock(mutex);
    EXPECT_EQ(log, (std::vector<std::string>{"step 1", "move", "step 2", "step 3"}));
}

// Stopping ends the step that runs (through its stop flag) and drops the steps that wait.
TEST(BotPool, StopEndsBackgroundWork) {
    class Endless final : public server::BackgroundWork {
    public:
        Step next_step() override {
            return [this](const std::atomic<bool>& stop) {
                ++steps;
                while (!stop.load()) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                }
            };
        }
        std::atomic<int> steps{0};
    };
    auto work = std::make_shared<Endless>();
    auto pool = std::make_unique<server::BotPool>(1, 4);
    ASSERT_TRUE(pool->submit_background(work));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (work->steps.load() == 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    ASSERT_EQ(work->steps.load(), 1);
    auto stopped = std::async(std::launch::async, [&pool] { pool->stop(); });
    ASSERT_EQ(stopped.wait_for(std::chrono::seconds(60)), std::future_status::ready);
    EXPECT_EQ(work->steps.load(), 1);
    EXPECT_EQ(pool->background_queued(), 0u);
    EXPECT_FALSE(pool->submit_background(work));
    server::BotPool none(0, 4);
    EXPECT_FALSE(none.submit_background(work));
}

}  // namespace
