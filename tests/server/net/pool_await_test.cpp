#include "server/net/pool_await.h"

#include <chrono>
#include <future>
#include <optional>
#include <thread>

#include <gtest/gtest.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace server {
namespace {

using Answer = std::optional<core::Expected<int>>;

// Spawns on `io` a coroutine that awaits `async_run_on(pool, work)` and stores what it got in
// `*got` (and the thread it resumed on in `*resumed_on`).
template <class Work>
void await_on_pool(boost::asio::io_context& io, BlockingPool& pool, Work work,
                   std::optional<Answer>* got, std::thread::id* resumed_on = nullptr) {
    boost::asio::co_spawn(
        io,
        [&pool, work, got, resumed_on]() -> boost::asio::awaitable<void> {
            auto answer = co_await async_run_on(pool, work, boost::asio::use_awaitable);
            if (resumed_on != nullptr) {
                *resumed_on = std::this_thread::get_id();
            }
            *got = std::move(answer);
        },
        boost::asio::detached);
}

TEST(PoolAwait, TheWorkRunsOnThePoolAndTheCoroutineResumesOnItsOwnThread) {
    boost::asio::io_context io;
    BlockingPool pool(2, 8);
    std::thread::id worker;
    std::thread::id resumed_on;
    std::optional<Answer> got;
    await_on_pool(
        io, pool,
        [&worker]() -> core::Expected<int> {
            worker = std::this_thread::get_id();
            return 7;
        },
        &got, &resumed_on);
    io.run_for(std::chrono::seconds(5));  // returns once the coroutine is done
    ASSERT_TRUE(got.has_value());
    ASSERT_TRUE(got->has_value());
    ASSERT_TRUE(got->value().ok());
    EXPECT_EQ(*got->value(), 7);
    EXPECT_NE(worker, std::this_thread::get_id());
    EXPECT_EQ(resumed_on, std::this_thread::get_id());
}

TEST(PoolAwait, AFullPoolAnswersNothingAtOnce) {
    boost::asio::io_context io;
    BlockingPool pool(1, 0);  // one job at a time, none waiting
    std::promise<void> release;
    auto released = release.get_future().share();
    ASSERT_TRUE(pool.run([released] { released.wait(); }));
    std::optional<Answer> got;
    bool ran = false;
    await_on_pool(
        io, pool,
        [&ran]() -> core::Expected<int> {
            ran = true;
            return 1;
        },
        &got);
    io.run_for(std::chrono::seconds(5));
    release.set_value();
    ASSERT_TRUE(got.has_value());
    EXPECT_FALSE(got->has_value());
    pool.stop();
    EXPECT_FALSE(ran);
}

TEST(PoolAwait, AJobDroppedAtStopStillResumesTheCoroutineWithNothing) {
    boost::asio::io_context io;
    BlockingPool pool(1, 100);
    std::promise<void> release;
    auto released = release.get_future().share();
    ASSERT_TRUE(pool.run([released] { released.wait(); }));
    std::optional<Answer> got;
    await_on_pool(
        io, pool, []() -> core::Expected<int> { return 1; }, &got);
    io.poll();  // the coroutine hands its job over and waits
    ASSERT_EQ(pool.pending(), 2u);
    std::thread stopper([&pool] { pool.stop(); });
    // Once stop() has begun the pool refuses new jobs: then the first job may end.
    while (pool.run([] {})) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    release.set_value();
    stopper.join();
    EXPECT_FALSE(got.has_value());  // not before the io_context runs the completion
    io.restart();
    io.run_for(std::chrono::seconds(5));
    ASSERT_TRUE(got.has_value());
    EXPECT_FALSE(got->has_value());
}

TEST(PoolAwait, AThrowingJobAnswersAnErrorNamingTheException) {
    boost::asio::io_context io;
    BlockingPool pool(1, 8);
    std::optional<Answer> got;
    await_on_pool(
        io, pool, []() -> core::Expected<int> { throw std::runtime_error("the disk is on fire"); },
        &got);
    io.run_for(std::chrono::seconds(5));
    ASSERT_TRUE(got.has_value());
    ASSERT_TRUE(got->has_value());
    ASSERT_FALSE(got->value().ok());
    EXPECT_NE(got->value().error().find("the disk is on fire"), std::string::npos);
}

}  // namespace
}  // namespace server
