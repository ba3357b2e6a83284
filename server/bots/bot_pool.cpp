#include "server/bots/bot_pool.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "server/bots/bot_think.h"
#include "server/bots/bot_time.h"
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

BotPool::BotPool(int threads, std::size_t queue)
    : capacity_(queue), thread_count_(static_cast<std::size_t>(std::max(threads, 0))) {
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

bool BotPool::submit_background(std::shared_ptr<BackgroundWork> work) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ || threads_.empty() || !work) {
            return false;
        }
        background_.push_back(std::move(work));
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

std::size_t BotPool::background_queued() const {
    std::lock_guard lock(mutex_);
    return background_.size();
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
    std::deque<std::shared_ptr<BackgroundWork>> dropped_work;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        dropped.swap(jobs_);
        dropped_work.swap(background_);
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

BackgroundWork::Step BotPool::next_background_step() {
    while (!background_.empty()) {
        if (auto step = background_.front()->next_step()) {
            return step;
        }
        background_.pop_front();  // every step handed out
    }
    return {};
}

void BotPool::work() {
    lower_bot_thread_priority();
    for (;;) {
        std::atomic<bool> stop_flag{false};
        std::optional<BotJob> job;
        BackgroundWork::Step step;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] {
                return stopping_ || (!held_ && (!jobs_.empty() || !background_.empty()));
            });
            if (stopping_) {
                return;
            }
            // A move waiting always goes first; background work only when none does.
            if (!jobs_.empty()) {
                job = std::move(jobs_.front());
                jobs_.pop_front();
                // The moves behind this one share its time (bot_time.h).
                job->move_time = busy_think_time(job->move_time, jobs_.size(), thread_count_);
            } else {
                step = next_background_step();
                if (!step) {
                    continue;
                }
            }
            running_.insert(&stop_flag);
        }
        if (!(job ? run_job(*job, stop_flag) : run_step(step, stop_flag))) {
            return;  // stopping
        }
    }
}

bool BotPool::finished_running(std::atomic<bool>& stop_flag) {
    std::lock_guard lock(mutex_);
    running_.erase(&stop_flag);
    return !stopping_;
}

bool BotPool::run_step(const BackgroundWork::Step& step, std::atomic<bool>& stop_flag) {
    try {
        step(stop_flag);
    } catch (const std::exception& e) {
        component_logger("bots")->error("background work failed: {}", e.what());
    }
    return finished_running(stop_flag);
}

bool BotPool::run_job(BotJob& job, std::atomic<bool>& stop_flag) {
    BotAnswer answer;
    try {
        answer = think(job, stop_flag);
    } catch (const std::exception& e) {
        answer.error = std::string("the bot failed: ") + e.what();
    }
    if (!finished_running(stop_flag)) {
        return false;  // the server is stopping: the answer would be refused anyway
    }
    const auto thought = answer.thought;
    if (job.done) {
        job.done(std::move(answer));
    }
    // Counted after the answer was handed on, so whoever sees the count sees its effect queued.
    metrics().bot_think_seconds.observe(thought);
    metrics().bot_moves.add();
    return true;
}

}  // namespace server
