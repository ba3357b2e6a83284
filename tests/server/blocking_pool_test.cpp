#include "server/blocking_pool.h"

#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

namespace server {
namespace {

TEST(BlockingPool, AJobRunsOffTheCallersThreadAndItsResultComesBackOnTheNamedExecutor) {
    boost::asio::io_context io;
    BlockingPool pool(2, 8);
    const auto caller = std::this_thread::get_id();
    std::thread::id worker;
    std::thread::id answered;
    int result = 0;
    ASSERT_TRUE(pool.run_then(
        io.get_executor(),
        [&]() -> core::Expected<int> {
            worker = std::this_thread::get_id();
            return 42;
        },
        [&](core::Expected<int> value) {
            answered = std::this_thread::get_id();
            result = value ? *value : -1;
        }));
    io.run_for(std::chrono::seconds(5));
    EXPECT_NE(worker, caller);
    EXPECT_EQ(answered, caller);  // io.run() ran on this thread
    EXPECT_EQ(result, 42);
}

TEST(BlockingPool, AThrowingJobStillAnswersWithAnErrorNamingTheException) {
    boost::asio::io_context io;
    BlockingPool pool(1, 8);
    std::string error;
    ASSERT_TRUE(pool.run_then(
        io.get_executor(),
        []() -> core::Status { throw std::runtime_error("the disk caught fire"); },
        [&](core::Status status) { error = status ? "none" : status.error(); }));
    io.run_for(std::chrono::seconds(5));
    EXPECT_NE(error.find("the disk caught fire"), std::string::npos) << error;
}

TEST(BlockingPool, JobsBeyondTheQueueAreRefusedAtOnceAndTheOthersStillRun) {
    std::promise<void> release;
    auto released = release.get_future().share();
    std::atomic<int> ran{0};
    BlockingPool pool(1, 2);  // after what its jobs use: joined before they are destroyed
    const auto blocked = [&] {
        released.wait();
        ++ran;
    };
    EXPECT_TRUE(pool.run(blocked));   // running
    EXPECT_TRUE(pool.run(blocked));   // waiting
    EXPECT_TRUE(pool.run(blocked));   // waiting
    EXPECT_FALSE(pool.run(blocked));  // the queue is full
    EXPECT_EQ(pool.pending(), 3u);
    release.set_value();
    for (int i = 0; i < 500 && pool.pending() > 0; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_EQ(ran.load(), 3);
    EXPECT_EQ(pool.pending(), 0u);
    EXPECT_TRUE(pool.run([&] { ++ran; }));  // room again
}

TEST(BlockingPool, AStoppedPoolRefusesNewJobs) {
    BlockingPool pool(1, 2);
    pool.stop();
    EXPECT_FALSE(pool.run([] {}));
}

}  // namespace
}  // namespace server
