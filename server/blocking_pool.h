#pragma once
// Threads for the calls that may block — the store's reads and synchronous writes, Redis round
// trips, files, a long export — so that none of them runs on an I/O thread, a strand or the
// pub/sub thread (issue 42). A caller hands a job over and gets its result back, as a handler
// posted to the executor it names (its session's, its strand). The queue is bounded: a job that
// does not fit is refused at once, and the caller answers its requester that the server is busy.
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/thread_pool.hpp>

#include "core/expected.h"
#include "server/guard.h"

namespace server {

// The text a requester gets when the pool's queue is full.
inline constexpr std::string_view pool_busy_text = "the server is busy; try again in a moment";

class BlockingPool {
public:
    // `threads` run jobs (at least one); at most `max_waiting` jobs wait for one of them.
    BlockingPool(std::size_t threads, std::size_t max_waiting);
    // Waits for the jobs running and queued (stop() first to drop what waits).
    ~BlockingPool();
    BlockingPool(const BlockingPool&) = delete;
    BlockingPool& operator=(const BlockingPool&) = delete;

    // Runs `work` on one of the threads, after the jobs queued before it. False — and nothing runs
    // — when max_waiting jobs wait already or the pool has stopped. An exception from `work` is
    // logged and swallowed.
    bool run(std::function<void()> work);

    // Runs `work()` on one of the threads, then `then(result)` on `executor`. `work` returns a
    // core::Expected or core::Status: should it throw, `then` gets an error naming the exception,
    // so a caller waiting for an answer is always answered. False (nothing runs) as run().
    template <class Executor, class Work, class Then>
    bool run_then(const Executor& executor, Work work, Then then) {
        using Result = std::invoke_result_t<Work&>;
        // The executor counts the job as its work, so that its io_context does not run out of
        // work while the answer is still to come.
        auto tracked =
            boost::asio::prefer(executor, boost::asio::execution::outstanding_work.tracked);
        return run([tracked, work = std::move(work), then = std::move(then)]() mutable {
            auto result = [&]() -> Result {
                try {
                    return work();
                } catch (...) {
                    return core::make_error("exception: " +
                                            describe_exception(std::current_exception()));
                }
            }();
            boost::asio::post(tracked,
                              [then = std::move(then), result = std::move(result)]() mutable {
                                  then(std::move(result));
                              });
        });
    }

    // Jobs handed over and not finished (queued or running).
    std::size_t pending() const { return pending_.load(); }
    // Refuses new jobs from now on, drops the ones that wait and waits for the running ones.
    void stop();

private:
    std::size_t threads_;
    std::size_t max_waiting_;
    std::atomic<std::size_t> pending_{0};
    std::atomic<bool> stopped_{false};
    boost::asio::thread_pool pool_;
};

}  // namespace server
