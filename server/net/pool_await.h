#pragma once
// A coroutine's way onto the BlockingPool (server/blocking_pool.h): `co_await async_run_on(pool,
// work, use_awaitable)` runs `work()` on a pool thread while the coroutine's thread serves others,
// then resumes the coroutine on its own executor with the result. std::nullopt when the pool
// refused the job (its queue full, or stopped) or dropped it at stop(): the caller answers that
// the server is busy.
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>

#include "server/blocking_pool.h"

namespace server {

namespace pool_await_detail {

// Owns the waiting coroutine's handler until the job's result reaches it; a job that never
// answers (dropped by the pool) completes it with std::nullopt, on its own executor, as it goes.
template <class Handler, class Result>
class PendingCompletion {
public:
    explicit PendingCompletion(Handler handler)
        : executor_(boost::asio::get_associated_executor(handler)), handler_(std::move(handler)) {}
    PendingCompletion(const PendingCompletion&) = delete;
    PendingCompletion& operator=(const PendingCompletion&) = delete;
    ~PendingCompletion() {
        if (handler_) {
            boost::asio::post(executor_, [handler = std::move(*handler_)]() mutable {
                std::move(handler)(std::optional<Result>{});
            });
        }
    }

    const auto& executor() const { return executor_; }
    // Called on the handler's executor (BlockingPool::run_then posts there).
    void complete(std::optional<Result> result) {
        auto handler = std::move(*handler_);
        handler_.reset();
        std::move(handler)(std::move(result));
    }

private:
    boost::asio::associated_executor_t<Handler> executor_;
    std::optional<Handler> handler_;
};

}  // namespace pool_await_detail

// Runs `work()` (returning a core::Expected or core::Status, as BlockingPool::run_then asks) on
// `pool` and completes `token` with std::optional of that result on the initiator's executor.
template <class Work, class Token>
auto async_run_on(BlockingPool& pool, Work work, Token&& token) {
    using Result = std::invoke_result_t<Work&>;
    return boost::asio::async_initiate<Token, void(std::optional<Result>)>(
        [&pool](auto handler, Work work) {
            using Pending = pool_await_detail::PendingCompletion<decltype(handler), Result>;
            // Shared: the pool's jobs must be copyable, the handler is not.
            auto pending = std::make_shared<Pending>(std::move(handler));
            pool.run_then(pending->executor(), std::move(work),
                          [pending](Result result) { pending->complete(std::move(result)); });
            // Refused: `pending` goes at the end of this scope and answers std::nullopt.
        },
        token, std::move(work));
}

}  // namespace server
