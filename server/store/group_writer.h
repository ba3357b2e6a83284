#pragma once
// The group commit both SQL stores share: commit() only queues; one thread takes everything queued
// (at most max_group_batches batches or about max_group_bytes of text), hands the group to the
// store's `write_group` (one transaction, a savepoint per batch: a batch that fails is rolled back
// alone and gets its error), and then calls each batch's handler, in queue order, on its own
// thread.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "core/expected.h"
#include "server/store/store.h"

namespace server {

class GroupWriter {
public:
    static constexpr std::size_t max_group_batches = 512;
    static constexpr std::size_t max_group_bytes = std::size_t{4} << 20;

    struct Pending {
        WriteBatch batch;
        CommitHandler done;
    };
    // Writes a group and returns each batch's outcome, every one of them final (committed or
    // rolled back).
    using WriteGroup = std::function<std::vector<core::Status>(const std::vector<Pending>&)>;

    // Starts the thread.
    explicit GroupWriter(WriteGroup write_group);
    GroupWriter(const GroupWriter&) = delete;
    GroupWriter& operator=(const GroupWriter&) = delete;
    ~GroupWriter();

    // Queues `batch`; `done` is called exactly once on the writer thread with the outcome. After
    // stop() has finished, `done` is called at once, on the caller's thread, with an error.
    void submit(WriteBatch batch, CommitHandler done);

    // Writes everything queued (and whatever its handlers queue in turn), then joins the thread.
    // Idempotent; never call it from a handler.
    void stop();

private:
    void run();
    // Waits for work and takes the next group; empty once stopping and nothing is left.
    std::vector<Pending> take_group();

    WriteGroup write_group_;
    std::mutex queue_mutex_;
    std::condition_variable wake_;
    std::deque<Pending> queue_;
    bool stopping_ = false;
    bool stopped_ = false;
    std::thread thread_;  // last: started once everything above is ready
};

}  // namespace server
