#include "server/store/sqlite_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <limits>
#include <thread>

#include "server/storage_test_util.h"
#include "server/store/sqlite_db.h"

namespace {

using server::GameRecord;
using server::PlayerRecord;
using server::Store;

std::unique_ptr<Store> open_or_fail(const std::string& path) {
    auto store = server::open_sqlite_store(path);
    EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error());
    return store.ok() ? std::move(*store) : nullptr;
}

PlayerRecord make_player(const std::string& id) {
    return PlayerRecord{id, "Name " + id, "hash-" + id, 1700000000};
}

GameRecord make_game(const std::string& id, std::vector<std::string> seats) {
    GameRecord g;
    g.id = id;
    g.variant = "chessence";
    g.rules = "house";
    g.seats = std::move(seats);
    g.created_at = 1700000100;
    return g;
}

// A store with players p_a, p_b and p_c already saved.
std::unique_ptr<Store> store_with_players(const std::string& path) {
    auto store = open_or_fail(path);
    for (const auto* id : {"p_a", "p_b", "p_c"}) {
        EXPECT_TRUE(store->insert_player(make_player(id)).ok());
    }
    return store;
}

// A reader has a connection of its own: it answers while the writer waits for the write lock,
// which another connection holds. (Were reads queued behind the writer, this read would wait until
// the writer gave up, and the write would fail.)
TEST(SqliteStoreReads, AReadDoesNotWaitForTheWriter) {
    storage_test::TempDir dir;
    const auto path = dir.file("reads.db");
    auto store = store_with_players(path);
    auto other = server::sqlite::Connection::open(path);
    ASSERT_TRUE(other.ok());
    ASSERT_TRUE((*other)->exec("BEGIN IMMEDIATE").ok());
    std::promise<core::Status> outcome;
    auto written = outcome.get_future();
    store->commit({server::RenamePlayer{"p_a", "Ann"}},
                  [&](core::Status status) { outcome.set_value(std::move(status)); });
    const auto found = store->player("p_a").value();
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->name, "Name p_a");
    EXPECT_EQ(written.wait_for(std::chrono::seconds(0)), std::future_status::timeout)
        << "the write cannot be done while the other connection holds the lock";
    ASSERT_TRUE((*other)->exec("ROLLBACK").ok());
    EXPECT_TRUE(written.get().ok());
    EXPECT_EQ(store->player("p_a").value()->name, "Ann");
}

// A database file that went bad under a running store: every read says so (with SQLite's reason)
// instead of answering "no such player" or an empty list.
TEST(SqliteStoreReads, AReadOfAFileThatWentBadIsAnErrorNotNotFound) {
    storage_test::TempDir dir;
    const auto path = dir.file("bad.db");
    auto store = store_with_players(path);
    ASSERT_TRUE(store->create_game(make_game("g_1", {"p_a", "p_b"})).ok());
    ASSERT_TRUE(store->append_event("g_1", 1, "{}").ok());
    {
        // Everything into the main file (the WAL emptied), then garbage over all of it.
        auto other = server::sqlite::Connection::open(path);
        ASSERT_TRUE(other.ok());
        ASSERT_TRUE((*other)->exec("PRAGMA wal_checkpoint(TRUNCATE)").ok());
    }
    const auto size = std::filesystem::file_size(path);
    {
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        const std::string garbage(static_cast<std::size_t>(size), '\x5a');
        file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    }
    const auto player = store->player("p_a");
    ASSERT_FALSE(player.ok()) << "p_a read as " << (player.value() ? "found" : "not found");
    EXPECT_NE(player.error().find("reading player p_a"), std::string::npos) << player.error();
    EXPECT_FALSE(store->player_by_token_hash("hash-p_a").ok());
    EXPECT_FALSE(store->game("g_1").ok());
    EXPECT_FALSE(store->events("g_1").ok());
    EXPECT_FALSE(store->unfinished_games().ok());
    EXPECT_FALSE(store->account("p_a").ok());
    EXPECT_FALSE(store->ratings_of("p_a").ok());
    EXPECT_FALSE(store->seeks().ok());
}
}  // namespace
