// The SQLite store's single writer (server/store/sqlite_writer.h), through the Store interface:
// batches queued without waiting keep their order, a failing batch is rolled back alone, every
// handler runs exactly once, shutdown writes what is queued, and a handler already reads what its
// batch wrote. Each test runs on a file and on ":memory:" (where reads share the writer's
// connection). No timing: batches are made to share a group by holding the writer in a handler.
#include "server/store/sqlite_writer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "server/storage_test_util.h"
#include "server/store/sqlite_store.h"

namespace {

using server::AppendEvents;
using server::CreateGame;
using server::FinishGame;
using server::InsertPlayer;
using server::Store;
using server::WriteBatch;

server::GameRecord make_game(const std::string& id) {
    server::GameRecord g;
    g.id = id;
    g.variant = "chessence";
    g.rules = "house";
    g.seats = {"p_a", "p_b"};
    g.created_at = 1700000000;
    return g;
}

AppendEvents append(const std::string& game, std::int64_t version, const std::string& text) {
    return AppendEvents{game, version, {text}};
}

// Collects the outcome of batches 0 … n-1 and counts how often each handler ran.
class Outcomes {
public:
    explicit Outcomes(std::size_t n) : status_(n, core::ok_status()), calls_(n, 0) {}

    server::CommitHandler handler(std::size_t i) {
        return [this, i](core::Status status) {
            std::lock_guard lock(mutex_);
            status_[i] = std::move(status);
            ++calls_[i];
            ++done_;
            changed_.notify_all();
        };
    }
    void wait_all() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return done_ >= status_.size(); });
    }
    const core::Status& status(std::size_t i) const { return status_[i]; }
    int calls(std::size_t i) const { return calls_[i]; }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<core::Status> status_;
    std::vector<int> calls_;
    std::size_t done_ = 0;
};

// Holds the writer thread inside a handler until release(): everything committed meanwhile is
// queued, and the writer takes it as one group (up to its bound) once released.
class Gate {
public:
    explicit Gate(Store& store) {
        store.commit({}, [this](core::Status) {
            entered_.set_value();
            released_.get_future().wait();
        });
        entered_.get_future().wait();
    }
    Gate(const Gate&) = delete;
    Gate& operator=(const Gate&) = delete;
    ~Gate() { release(); }
    void release() {
        if (!released_once_) {
            released_once_ = true;
            released_.set_value();
        }
    }

private:
    std::promise<void> entered_;
    std::promise<void> released_;
    bool released_once_ = false;
};

class SqliteWriterTest : public ::testing::TestWithParam<bool> {
protected:
    void SetUp() override {
        path_ = GetParam() ? dir_.file("writer.db") : ":memory:";
        store_ = open();
        ASSERT_TRUE(store_);
        ASSERT_TRUE(store_->insert_player({"p_a", "Ann", "ha", 1}).ok());
        ASSERT_TRUE(store_->insert_player({"p_b", "Bob", "hb", 1}).ok());
    }
    std::unique_ptr<Store> open() {
        auto store = server::open_sqlite_store(path_);
        EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error());
        return store.ok() ? std::move(*store) : nullptr;
    }
    std::vector<std::string> texts(const std::string& game) {
        std::vector<std::string> out;
        for (const auto& e : store_->events(game).value()) {
            out.push_back(e.json);
        }
        return out;
    }

    storage_test::TempDir dir_;
    std::string path_;
    std::unique_ptr<Store> store_;
};

TEST_P(SqliteWriterTest, BatchesQueuedWithoutWaitingLandInOrderPerGame) {
    ASSERT_TRUE(store_->create_game(make_game("g_1")).ok());
    ASSERT_TRUE(store_->create_game(make_game("g_2")).ok());
    constexpr int count = 300;
    Outcomes outcomes(2 * count);
    for (int v = 1; v <= count; ++v) {
        const auto i = static_cast<std::size_t>(2 * (v - 1));
        store_->commit({append("g_1", v, std::to_string(v))}, outcomes.handler(i));
        store_->commit({append("g_2", v, std::to_string(-v))}, outcomes.handler(i + 1));
    }
    outcomes.wait_all();
    for (std::size_t i = 0; i < 2 * count; ++i) {
        ASSERT_TRUE(outcomes.status(i).ok()) << i << ": " << outcomes.status(i).error();
    }
    const auto g1 = texts("g_1");
    const auto g2 = texts("g_2");
    ASSERT_EQ(g1.size(), std::size_t{count});
    ASSERT_EQ(g2.size(), std::size_t{count});
    for (int v = 1; v <= count; ++v) {
        EXPECT_EQ(g1[static_cast<std::size_t>(v - 1)], std::to_string(v));
        EXPECT_EQ(g2[static_cast<std::size_t>(v - 1)], std::to_string(-v));
    }
}

TEST_P(SqliteWriterTest, AFailingBatchIsRolledBackAloneAndItsGroupCommits) {
    ASSERT_TRUE(store_->create_game(make_game("g_1")).ok());
    auto stranger = make_game("g_x");
    stranger.seats = {"p_a", "p_nobody"};
    Outcomes outcomes(5);
    Gate gate(*store_);
    store_->commit({append("g_1", 1, "a")}, outcomes.handler(0));
    // Its first write succeeds, its second fails: the first must be undone.
    store_->commit({append("g_1", 2, "b"), CreateGame{stranger}}, outcomes.handler(1));
    store_->commit({append("g_1", 2, "c")}, outcomes.handler(2));
    store_->commit({FinishGame{"g_nowhere", "{}", 5}}, outcomes.handler(3));
    store_->commit({InsertPlayer{{"p_c", "Cy", "hc", 1}}, FinishGame{"g_1", "{}", 9}},
                   outcomes.handler(4));
    gate.release();
    outcomes.wait_all();

    EXPECT_TRUE(outcomes.status(0).ok());
    ASSERT_FALSE(outcomes.status(1).ok());
    EXPECT_NE(outcomes.status(1).error().find("unknown player p_nobody"), std::string::npos)
        << outcomes.status(1).error();
    EXPECT_TRUE(outcomes.status(2).ok()) << outcomes.status(2).error();
    ASSERT_FALSE(outcomes.status(3).ok());
    EXPECT_NE(outcomes.status(3).error().find("no such game g_nowhere"), std::string::npos);
    EXPECT_TRUE(outcomes.status(4).ok());

    EXPECT_EQ(texts("g_1"), (std::vector<std::string>{"a", "c"}));
    EXPECT_FALSE(store_->game("g_x").value().has_value());
    EXPECT_EQ(store_->game("g_1").value()->status, "finished");
    EXPECT_TRUE(store_->player("p_c").value().has_value());
}

TEST_P(SqliteWriterTest, EveryHandlerRunsExactlyOnce) {
    constexpr int threads = 4;
    constexpr int per_thread = 120;
    for (int t = 0; t < threads; ++t) {
        ASSERT_TRUE(store_->create_game(make_game("g_" + std::to_string(t))).ok());
    }
    Outcomes outcomes(threads * per_thread);
    std::vector<std::thread> rooms;
    for (int t = 0; t < threads; ++t) {
        rooms.emplace_back([&, t] {
            const auto game = "g_" + std::to_string(t);
            std::int64_t next = 1;
            for (int n = 0; n < per_thread; ++n) {
                const auto i = static_cast<std::size_t>(t * per_thread + n);
                // Every third batch names a game that does not exist and fails.
                if (n % 3 == 2) {
                    store_->commit({append(game, next, "x"), append("g_none", 1, "x")},
                                   outcomes.handler(i));
                } else {
                    store_->commit({append(game, next++, std::to_string(n))}, outcomes.handler(i));
                }
            }
        });
    }
    for (auto& r : rooms) {
        r.join();
    }
    store_.reset();  // waits for the writer: no handler may run after this
    for (int t = 0; t < threads; ++t) {
        for (int n = 0; n < per_thread; ++n) {
            const auto i = static_cast<std::size_t>(t * per_thread + n);
            EXPECT_EQ(outcomes.calls(i), 1) << "batch " << i;
            EXPECT_EQ(outcomes.status(i).ok(), n % 3 != 2) << "batch " << i;
        }
    }
}

TEST_P(SqliteWriterTest, AHandlerReadsWhatItsBatchWrote) {
    ASSERT_TRUE(store_->create_game(make_game("g_1")).ok());
    std::promise<std::pair<std::size_t, std::string>> seen;
    store_->commit({append("g_1", 1, "first"), FinishGame{"g_1", "{\"r\":1}", 7}}, [&](core::Status
                                                                                           status) {
        EXPECT_TRUE(status.ok());
        seen.set_value({store_->events("g_1").value().size(), store_->game("g_1").value()->status});
    });
    const auto [events, status] = seen.get_future().get();
    EXPECT_EQ(events, 1u);
    EXPECT_EQ(status, "finished");
}

TEST_P(SqliteWriterTest, AHandlerMayCommitTheNextBatch) {
    ASSERT_TRUE(store_->create_game(make_game("g_1")).ok());
    constexpr std::int64_t last = 50;
    std::promise<core::Status> finished;
    std::function<void(std::int64_t)> play = [&](std::int64_t v) {
        store_->commit({append("g_1", v, std::to_string(v))}, [&, v](core::Status status) {
            if (!status || v == last) {
                finished.set_value(status);
                return;
            }
            play(v + 1);
        });
    };
    play(1);
    EXPECT_TRUE(finished.get_future().get().ok());
    EXPECT_EQ(store_->events("g_1").value().size(), std::size_t{last});
}

TEST_P(SqliteWriterTest, ClosingWritesEverythingQueued) {
    ASSERT_TRUE(store_->create_game(make_game("g_1")).ok());
    // More than one group's worth, all queued behind the gate when the store is closed.
    constexpr std::size_t count = 3 * server::SqliteWriter::max_group_batches + 7;
    Outcomes outcomes(count + 1);
    Store* store = store_.get();  // handlers use it while it closes
    {
        Gate gate(*store);
        for (std::size_t i = 0; i < count; ++i) {
            const auto v = static_cast<std::int64_t>(i + 1);
            auto handler = outcomes.handler(i);
            if (i + 1 == count) {
                // The last handler queues one more batch while the store is closing.
                handler = [&, h = std::move(handler)](core::Status status) {
                    h(std::move(status));
                    store->commit({append("g_1", count + 1, "late")}, outcomes.handler(count));
                };
            }
            store->commit({append("g_1", v, std::to_string(v))}, std::move(handler));
        }
        gate.release();
        store_.reset();
    }
    for (std::size_t i = 0; i <= count; ++i) {
        ASSERT_EQ(outcomes.calls(i), 1) << i;
        ASSERT_TRUE(outcomes.status(i).ok()) << i << ": " << outcomes.status(i).error();
    }
    if (GetParam()) {
        store_ = open();
        ASSERT_TRUE(store_);
        const auto events = store_->events("g_1").value();
        ASSERT_EQ(events.size(), count + 1);
        EXPECT_EQ(events.back().json, "late");
    }
}

INSTANTIATE_TEST_SUITE_P(FileAndMemory, SqliteWriterTest, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                             return info.param ? "File" : "Memory";
                         });

}  // namespace
