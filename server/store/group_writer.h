#pragma once
// The group commit both SQL stores share: commit() only queues; one thread takes everything queued
// (at most max_group_batches batches or about max_group_bytes of text), hands the group to the
// store's `write_group` (one transaction, a savepoint per batch: a batch that fails is rolled back
// alone and gets its error), and then calls each batch's handler, in queue order, on its own
// thread. The batches that are not a room's (no events or chat line, or a new game) may wait at
// most max_queued at once (store_queue_max, limits.h): one more fails at once with
// store_busy_error, so a stalled disk cannot make the queue grow without bound. A room's batches
// are never refused (each room has one batch in flight at most).
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "core/expected.h"
#include "server/limits.h"
#include "server/store/store.h"

namespace server {

class GroupWriter {
public:
    static constexpr std::size_t max_group_batches = 512;
    static constexpr std::size_t max_group_bytes = std::size_t{4} << 20;

    struct Pending {
        WriteBatch batch;
        CommitHandler done;
        bool room = false;  // a room's batch: not counted against max_queued
    };
    // Writes a group and returns each batch's outcome, every one of them final (committed or
    // rolled back).
    using WriteGroup = std::function<std::vector<core::Status>(const std::vector<Pending>&)>;

    // What a batch refused for a full queue fails with (nothing of it was written).
    static constexpr std::string_view store_busy_error =
        "the store is busy (too many writes waiting); nothing was written";

    // Starts the thread.
    explicit GroupWriter(WriteGroup write_group, std::size_t max_queued = store_queue_max);
    GroupWriter(const GroupWriter&) = delete;
    GroupWriter& operator=(const GroupWriter&) = delete;
    ~GroupWriter();

    // Queues `batch`; `done` is called exactly once on the writer thread with the outcome. After
    // stop() has finished, or when the queue is full (above), `done` is called at once, on the
    // caller's thread, with an error.
    void submit(WriteBatch batch, CommitHandler done);
    // How many batches were refused because the queue was full.
    std::uint64_t busy_refusals();

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
    const std::size_t max_queued_;
    std::size_t queued_others_ = 0;  // the batches in queue_ that are not a room's
    std::uint64_t busy_refusals_ = 0;
    bool warned_ = false;  // the full queue was logged; again once it had room
    bool stopping_ = false;
    bool stopped_ = false;
    std::thread thread_;  // last: started once everything above is ready
};

}  // namespace server
