#pragma once
// The computer players' threads (issue 25): a bounded queue of jobs (bot_job.h) and a few threads
// that take them, think (bot_think.h) and hand each answer to the job's callback, which posts it
// to its room. The threads run at a lower priority than the rest of the server (nice +10), so a
// bot thinking never delays a move of people; nobody thinks on an I/O thread, a room's strand or
// the store's writer. Below the bots' moves, the threads run background work (game analysis) one
// short step at a time: a thread takes a step only when no move waits, so a move waits at most for
// the steps already running. stop() (and the destructor) ends every search at once, drops the
// jobs and the background work that wait and joins the threads; an answer that comes after it is
// dropped.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "server/bots/bot_job.h"

namespace server {

// Work for the bot threads that matters less than any move (issue 25: analysing a game), in
// steps: each step should take a fraction of a second, so that a move never waits long.
class BackgroundWork {
public:
    using Step = std::function<void(const std::atomic<bool>& stop)>;
    virtual ~BackgroundWork() = default;
    // The next step, or an empty function once every step has been handed out (the work then
    // leaves the queue; the steps running go on). Called with the pool's lock held: it must be
    // quick and must not call the pool. A step runs on a bot thread and must end soon once `stop`
    // is set (the pool is stopping: whatever it found is then not wanted).
    virtual Step next_step() = 0;
};

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
    // Queues background work behind every other (the caller bounds how much); false (and it is
    // dropped) when the pool has no thread or it has stopped.
    bool submit_background(std::shared_ptr<BackgroundWork> work);
    // Jobs waiting for a thread (GET /metrics).
    std::size_t queued() const;
    // Background works with steps not handed out yet.
    std::size_t background_queued() const;
    // Searches running now.
    std::size_t thinking() const;
    // Stops every search and drops the jobs that wait, without waiting for the threads (the
    // drain: an I/O thread calls it). No job is taken after it.
    void cancel();
    // cancel(), then joins the threads. Idempotent; not from two threads at once.
    void stop();
    // Tests: while held, no thread takes a new job or step (the searches already running go on).
    void hold(bool held);

private:
    void work();
    // With the lock held: the next background step to run, dropping the works that have none.
    BackgroundWork::Step next_background_step();
    // Runs a move job and hands its answer on, or a background step; false when the pool is
    // stopping (the thread then ends).
    bool run_job(BotJob& job, std::atomic<bool>& stop_flag);
    bool run_step(const BackgroundWork::Step& step, std::atomic<bool>& stop_flag);
    // The search behind `stop_flag` ended; false when the pool is stopping.
    bool finished_running(std::atomic<bool>& stop_flag);

    const std::size_t capacity_;
    const std::size_t thread_count_;  // as started (threads_ changes under stop())
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<BotJob> jobs_;
    std::deque<std::shared_ptr<BackgroundWork>> background_;
    std::set<std::atomic<bool>*> running_;  // the stop flags of the searches now running
    bool stopping_ = false;
    bool held_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace server
