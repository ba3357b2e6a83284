// Issue 42: the store writer's queue is bounded. While a group is being written (a stalled disk),
// at most store_queue_max writes that are not a room's wait; one more fails at once with
// store_busy_error, while a room's batch (bounded by its one batch in flight) is still taken, and
// everything that was queued is written once the disk is back.
#include "server/store/group_writer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "server/limits.h"

namespace {

// A write_group that blocks until opened: the writer's thread stands still with its group.
class StalledDisk {
public:
    server::GroupWriter::WriteGroup writer() {
        return [this](const std::vector<server::GroupWriter::Pending>& group) {
            std::unique_lock lock(mutex_);
            ++groups_entered_;
            entered_.notify_all();
            opened_.wait(lock, [this] { return open_; });
            return std::vector<core::Status>(group.size(), core::ok_status());
        };
    }
    // Waits until the writer is inside its first group.
    void wait_stalled() {
        std::unique_lock lock(mutex_);
        entered_.wait(lock, [this] { return groups_entered_ > 0; });
    }
    void open() {
        {
            std::lock_guard lock(mutex_);
            open_ = true;
        }
        opened_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable entered_;
    std::condition_variable opened_;
    int groups_entered_ = 0;
    bool open_ = false;
};

// Opens the disk when it goes (before the writer's stop, which waits for the disk), so that a
// failed assertion does not leave the writer waiting forever.
struct OpenAtEnd {
    StalledDisk& disk;
    ~OpenAtEnd() { disk.open(); }
};

// One batch's outcome, set on whichever thread calls the handler.
class Outcome {
public:
    server::CommitHandler handler() {
        return [this](core::Status status) {
            std::lock_guard lock(mutex_);
            status_ = std::move(status);
        };
    }
    std::optional<core::Status> get() {
        std::lock_guard lock(mutex_);
        return status_;
    }

private:
    std::mutex mutex_;
    std::optional<core::Status> status_;
};

server::WriteBatch player_write(int n) {
    return {server::RenamePlayer{"p_" + std::to_string(n), "Ann"}};
}

// What the handlers see outlives the writer (declared before it), whose stop() calls them.
TEST(GroupWriterQueue, WritesBeyondTheBoundFailAtOnceWhileTheDiskStalls) {
    StalledDisk disk;
    std::atomic<int> written{0};
    std::atomic<int> failed{0};
    Outcome refused;
    Outcome room;
    server::GroupWriter writer(disk.writer());
    const OpenAtEnd opener{disk};
    const auto count = [&](core::Status status) { (status ? written : failed) += 1; };
    writer.submit(player_write(0), count);
    disk.wait_stalled();
    for (std::size_t i = 0; i < server::store_queue_max; ++i) {
        writer.submit(player_write(static_cast<int>(i) + 1), count);
    }
    EXPECT_EQ(failed.load(), 0) << "the bound itself is accepted";

    writer.submit(player_write(-1), refused.handler());
    const auto at_once = refused.get();
    ASSERT_TRUE(at_once.has_value()) << "refused at once, on the caller's thread";
    ASSERT_FALSE(*at_once);
    EXPECT_EQ(at_once->error(), server::GroupWriter::store_busy_error);
    EXPECT_EQ(writer.busy_refusals(), 1u);

    writer.submit({server::AppendEvents{"g_1", 2, {R"({"kind":"move"})"}}}, room.handler());
    EXPECT_FALSE(room.get().has_value()) << "a room's batch is queued, not refused";

    disk.open();
    writer.stop();
    EXPECT_EQ(written.load(), static_cast<int>(server::store_queue_max) + 1);
    EXPECT_EQ(failed.load(), 0);
    const auto stored = room.get();
    ASSERT_TRUE(stored.has_value());
    EXPECT_TRUE(*stored);
}

TEST(GroupWriterQueue, TheQueueTakesWritesAgainOnceItDrains) {
    StalledDisk disk;
    std::atomic<int> written{0};
    Outcome refused;
    Outcome later;
    server::GroupWriter writer(disk.writer(), 2);
    const OpenAtEnd opener{disk};
    const auto count = [&](core::Status status) { written += status ? 1 : 0; };
    writer.submit(player_write(0), count);
    disk.wait_stalled();
    writer.submit(player_write(1), count);
    writer.submit(player_write(2), count);
    writer.submit(player_write(3), refused.handler());
    const auto at_once = refused.get();
    ASSERT_TRUE(at_once.has_value());
    EXPECT_FALSE(*at_once);
    disk.open();
    // Once the writer took the two waiting writes, there is room again.
    for (int tries = 0; tries < 500 && written.load() < 3; ++tries) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_EQ(written.load(), 3);
    writer.submit(player_write(4), later.handler());
    writer.stop();
    const auto stored = later.get();
    ASSERT_TRUE(stored.has_value());
    EXPECT_TRUE(*stored);
}

}  // namespace
