#pragma once
// The computer players' threads (issue 25): a bounded queue of jobs (bot_job.h) and a few threads
// that take them, think (bot_think.h) and hand each answer to the job's callback, which posts it
// to its room. The threads run at a lower priority than the rest of the server (nice +10), so a
// bot thinking never delays a move of people; nobody thinks on an I/O thread, a room's strand or
// the store's writer. stop() (and the destructor) ends every search at once, drops the jobs that
// wait and joins the threads; an answer that comes after it is dropped.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "server/bots/bot_job.h"

namespace server {

class BotPool {
public:
    // `threads` may be 0: the pool then takes no job.
    BotPool(int threads, std::size_t queue);
    ~BotPool();
    BotPool(const BotPool&) = delete;
    BotPool& operator=(const BotPool&) = delete;

    // Queues a job; false (and the job is dropped) when the queue is full, the pool has no thread
    // or it has stopped.
    bool submit(BotJob job);
    // Whether submit() would take a job now.
    bool has_room() const;
    // Jobs waiting for a thread (GET /metrics).
    std::size_t queued() const;
    // Searches running now.
    std::size_t thinking() const;
    // Stops every search and drops the jobs that wait, without waiting for the threads (the
    // drain: an I/O thread calls it). No job is taken after it.
    void cancel();
    // cancel(), then joins the threads. Idempotent; not from two threads at once.
    void stop();
    // Tests: while held, no thread takes a new job (the searches already running go on).
    void hold(bool held);

private:
    void work();

    const std::size_t capacity_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<BotJob> jobs_;
    std::set<std::atomic<bool>*> running_;  // the stop flags of the searches now running
    bool stopping_ = false;
    bool held_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace server
