#include "server/blocking_pool.h"

#include <algorithm>

namespace server {

BlockingPool::BlockingPool(std::size_t threads, std::size_t max_waiting)
    : threads_(std::max<std::size_t>(1, threads)), max_waiting_(max_waiting), pool_(threads_) {}

BlockingPool::~BlockingPool() {
    pool_.join();
}

bool BlockingPool::run(std::function<void()> work) {
    if (stopped_.load()) {
        return false;
    }
    // pending_ counts the running jobs too: a job waits when more than threads_ are pending.
    if (pending_.fetch_add(1) >= threads_ + max_waiting_) {
        pending_.fetch_sub(1);
        return false;
    }
    boost::asio::post(pool_, [this, work = std::move(work)] {
        if (!stopped_.load()) {
            guarded("pool", "a blocking job", work);
        }
        pending_.fetch_sub(1);
    });
    return true;
}

void BlockingPool::stop() {
    stopped_.store(true);
    pool_.join();
}

}  // namespace server
