// The read pool lends connections; when it cannot have one, the read is an error naming the file
// and SQLite's reason, never a fallback value.
#include "server/store/sqlite_read_pool.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "server/storage_test_util.h"

namespace {

using server::sqlite::Connection;

TEST(ReadPool, AReadRunsOnAConnectionAndReturnsWhatItReturns) {
    storage_test::TempDir dir;
    const auto path = dir.file("pool.db");
    ASSERT_TRUE(Connection::open(path).ok());
    auto pool = server::ReadPool::open(path);
    ASSERT_TRUE(pool.ok()) << pool.error();
    const auto read = (*pool)->with([](Connection& db) { return db.query_text("SELECT 6 * 7"); });
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(*read, "42");
}

// The idle connection is in use by the outer read, so the inner one needs a new connection, and
// the file it would open is gone.
TEST(ReadPool, AReadWithoutAConnectionIsAnError) {
    storage_test::TempDir dir;
    const auto path = dir.file("gone.db");
    ASSERT_TRUE(Connection::open(path).ok());
    auto pool = server::ReadPool::open(path);
    ASSERT_TRUE(pool.ok()) << pool.error();
    std::filesystem::remove(path);
    auto& readers = **pool;
    const auto read = readers.with([&](Connection&) {
        return readers.with([](Connection& db) { return db.query_text("SELECT 1"); });
    });
    ASSERT_FALSE(read.ok());
    EXPECT_NE(read.error().find("cannot open a read connection"), std::string::npos)
        << read.error();
    EXPECT_NE(read.error().find(path), std::string::npos) << read.error();

    // The connection that was open still serves.
    const auto again = readers.with([](Connection& db) { return db.query_text("SELECT 1"); });
    ASSERT_TRUE(again.ok()) << again.error();
    EXPECT_EQ(*again, "1");
}

}  // namespace
