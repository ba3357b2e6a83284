#include "server/bots/bot_pool.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "server/bots/bot_think.h"
#include "server/log.h"
#include "server/metrics/metrics.h"

namespace server {

namespace {

// Lowers the calling thread's priority by 10 (Linux: a thread's nice value is its own). A failure
// is only logged: the bot then thinks at the server's priority.
void lower_bot_thread_priority() {
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    errno = 0;
    const int now = getpriority(PRIO_PROCESS, tid);
    if (errno != 0 || setpriority(PRIO_PROCESS, tid, now + 10) != 0) {
        component_logger("bots")->warn("cannot lower a bot thread's priority: {}",
                                       std::strerror(errno));
    }
}

}  // namespace

BotPool::BotPool(int threads, std::size_t queue) : capacity_(queue) {
    for (int i = 0; i < threads; ++i) {
        threads_.emplace_back([this] { work(); });
    }
}

BotPool::~BotPool() {
    stop();
}

bool BotPool::submit(BotJob job) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ || threads_.empty() || jobs_.size() >= capacity_) {
            return false;
        }
        jobs_.push_back(std::move(job));
    }
    wake_.notify_one();
    return true;
}

bool BotPool::has_room() const {
    std::lock_guard lock(mutex_);
    return !stopping_ && !threads_.empty() && jobs_.size() < capacity_;
}

std::size_t BotPool::queued() const {
    std::lock_guard lock(mutex_);
    return jobs_.size();
}

std::size_t BotPool::thinking() const {
    std::lock_guard lock(mutex_);
    return running_.size();
}

void BotPool::hold(bool held) {
    {
        std::lock_guard lock(mutex_);
        held_ = held;
    }
    wake_.notify_all();
}

void BotPool::cancel() {
    std::deque<BotJob> dropped;  // destroyed outside the lock
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        dropped.swap(jobs_);
        for (auto* flag : running_) {
            flag->store(true);
        }
    }
    wake_.notify_all();
}

void BotPool::stop() {
    cancel();
    for (auto& thread : threads_) {
        if (thread.joinable() && thread.get_id() != std::this_thread::get_id()) {
            thread.join();
        }
    }
    std::lock_guard lock(mutex_);
    threads_.clear();
}

void BotPool::work() {
    lower_bot_thread_priority();
    for (;;) {
        std::atomic<bool> stop_flag{false};
        BotJob job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || (!held_ && !jobs_.empty()); });
            if (stopping_) {
                return;
            }
            job = std::move(jobs_.front());
            jobs_.pop_front();
            running_.insert(&stop_flag);
        }
        BotAnswer answer;
        try {
            answer = think(job, stop_flag);
        } catch (const std::exception& e) {
            answer.error = std::string("the bot failed: ") + e.what();
        }
        bool stopped = false;
        {
            std::lock_guard lock(mutex_);
            running_.erase(&stop_flag);
            stopped = stopping_;
        }
        if (stopped) {
            return;  // the server is stopping: the answer would be refused anyway
        }
        const auto thought = answer.thought;
        if (job.done) {
            job.done(std::move(answer));
        }
        // Counted after the answer was handed on, so whoever sees the count sees its effect queued.
        metrics().bot_think_seconds.observe(thought);
        metrics().bot_moves.add();
    }
}

}  // namespace server
