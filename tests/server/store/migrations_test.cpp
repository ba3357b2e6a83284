#include "server/store/migrations.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "server/storage_test_util.h"
#include "server/store/sqlite_store.h"

namespace {

using storage_test::TempDir;

// A PRAGMA's value read on a separate raw connection, to see what is really in the file.
std::string pragma_of(const std::string& path, const std::string& pragma) {
    auto db = server::sqlite::Connection::open(path);
    EXPECT_TRUE(db.ok());
    auto value = (*db)->query_text("PRAGMA " + pragma);
    EXPECT_TRUE(value.ok()) << (value.ok() ? "" : value.error());
    return value.ok() ? *value : "";
}

// A game of p_1 against itself.
server::GameRecord game_record(const std::string& id, const std::string& variant) {
    server::GameRecord g;
    g.id = id;
    g.variant = variant;
    g.rules = "house";
    g.seats = {"p_1", "p_1"};
    return g;
}

void expect_error_mentions(const core::Expected<std::unique_ptr<server::Store>>& opened,
                           const std::string& path, const std::string& problem) {
    ASSERT_FALSE(opened.ok()) << "opening " << path << " should fail";
    EXPECT_NE(opened.error().find(path), std::string::npos) << opened.error();
    EXPECT_NE(opened.error().find(problem), std::string::npos) << opened.error();
}

TEST(Migrations, NewFileGetsTheCurrentSchemaInWalMode) {
    TempDir dir;
    const auto path = dir.file("new.db");
    ASSERT_TRUE(server::open_sqlite_store(path).ok());
    EXPECT_EQ(pragma_of(path, "user_version"), std::to_string(server::current_schema_version()));
    EXPECT_EQ(pragma_of(path, "journal_mode"), "wal");
    EXPECT_GE(server::current_schema_version(), 2);
}

TEST(Migrations, ReopeningKeepsEverything) {
    TempDir dir;
    const auto path = dir.file("reopen.db");
    {
        auto store = server::open_sqlite_store(path);
        ASSERT_TRUE(store.ok());
        ASSERT_TRUE((*store)->insert_player({"p_1", "Ann", "h1", 1}).ok());
        ASSERT_TRUE((*store)->create_game(game_record("g_1", "chesica")).ok());
        ASSERT_TRUE((*store)->append_event("g_1", 1, "{\"kind\":\"move\"}").ok());
    }
    auto store = server::open_sqlite_store(path);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ((*store)->player("p_1").value()->name, "Ann");
    EXPECT_EQ((*store)->game("g_1").value()->variant, "chesica");
    EXPECT_EQ((*store)->events("g_1").value().size(), 1u);
    EXPECT_TRUE((*store)->append_event("g_1", 2, "{}").ok()) << "the version rule survives";
    EXPECT_FALSE((*store)->append_event("g_1", 2, "{}").ok());
}

TEST(Migrations, AnOlderSchemaIsUpgradedWithItsDataKept) {
    TempDir dir;
    const auto path = dir.file("v1.db");
    {
        auto db = server::sqlite::Connection::open(path);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(server::migrate(**db, path, 1).ok());
        ASSERT_TRUE((*db)->exec("INSERT INTO players VALUES ('p_1', 'Ann', 'h1', 7)").ok());
    }
    ASSERT_EQ(pragma_of(path, "user_version"), "1");
    auto store = server::open_sqlite_store(path);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ((*store)->player("p_1").value()->created_at, 7);
    ASSERT_TRUE((*store)->save_seek({"s_1", "{}"}).ok()) << "the seeks table came with step 2";
    EXPECT_EQ(pragma_of(path, "user_version"), std::to_string(server::current_schema_version()));
}

TEST(Migrations, ANewerSchemaIsRefusedAndLeftAlone) {
    TempDir dir;
    const auto path = dir.file("future.db");
    const auto future = std::to_string(server::current_schema_version() + 1);
    {
        auto db = server::sqlite::Connection::open(path);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE((*db)->exec("CREATE TABLE later (x); PRAGMA user_version = " + future).ok());
    }
    expect_error_mentions(server::open_sqlite_store(path), path, "newer");
    EXPECT_EQ(pragma_of(path, "user_version"), future);
}

TEST(OpenErrors, RandomBytesAreNotADatabase) {
    TempDir dir;
    const auto path = dir.file("random.db");
    std::mt19937 rng(42);
    std::string bytes(8192, '\0');
    for (auto& c : bytes) {
        c = static_cast<char>(rng());
    }
    storage_test::write_file(path, bytes);
    expect_error_mentions(server::open_sqlite_store(path), path, "not a");
}

TEST(OpenErrors, ATextFileIsNotADatabase) {
    TempDir dir;
    const auto path = dir.file("notes.txt");
    storage_test::write_file(path, "these are my notes, not a database\n");
    expect_error_mentions(server::open_sqlite_store(path), path, "not a");
}

// A database with enough rows to span many pages, closed cleanly (the WAL checkpointed away).
std::string filled_database(const TempDir& dir) {
    const auto path = dir.file("filled.db");
    auto store = server::open_sqlite_store(path);
    EXPECT_TRUE(store.ok());
    EXPECT_TRUE((*store)->insert_player({"p_1", "Ann", "h1", 1}).ok());
    EXPECT_TRUE((*store)->create_game(game_record("g_1", "chessence")).ok());
    const std::string padding(900, 'x');
    for (int v = 1; v <= 200; ++v) {
        EXPECT_TRUE((*store)->append_event("g_1", v, "{\"pad\":\"" + padding + "\"}").ok());
    }
    return path;
}

TEST(OpenErrors, ATruncatedDatabaseIsReportedCorrupt) {
    TempDir dir;
    const auto path = filled_database(dir);
    const auto size = std::filesystem::file_size(path);
    ASSERT_GT(size, 100'000u);
    std::filesystem::resize_file(path, size / 2);
    expect_error_mentions(server::open_sqlite_store(path), path, "corrupt");
}

TEST(OpenErrors, OverwrittenPagesAreReportedCorrupt) {
    TempDir dir;
    const auto path = filled_database(dir);
    {
        std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(std::streamoff(40 * 1024));
        const std::string garbage(12 * 1024, '\x5a');
        file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    }
    expect_error_mentions(server::open_sqlite_store(path), path, "corrupt");
}

TEST(OpenErrors, ADirectoryIsRefused) {
    TempDir dir;
    expect_error_mentions(server::open_sqlite_store(dir.path().string()), dir.path().string(),
                          "directory");
}

TEST(OpenErrors, AnUnreachablePathIsRefused) {
    TempDir dir;
    const auto blocker = dir.file("plain-file");
    storage_test::write_file(blocker, "x");
    const auto under_file = blocker + "/games.db";
    expect_error_mentions(server::open_sqlite_store(under_file), under_file, "cannot open");
    const auto missing_dir = dir.file("no/such/dir/games.db");
    expect_error_mentions(server::open_sqlite_store(missing_dir), missing_dir, "cannot open");
}

}  // namespace
