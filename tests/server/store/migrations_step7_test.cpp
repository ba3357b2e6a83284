// Schema step 7 (issue 23) on a database written by the previous version (step 6): each private
// game gets an access key of its own (32 hex digits), public games none.
#include <gtest/gtest.h>

#include <regex>

#include "server/storage_test_util.h"
#include "server/store/migrations.h"
#include "server/store/sqlite_db.h"
#include "server/store/sqlite_store.h"

namespace {

TEST(MigrationStep7, PrivateGamesGetAnAccessKey) {
    storage_test::TempDir dir;
    const auto path = dir.file("v6.db");
    {
        auto db = server::sqlite::Connection::open(path);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(server::migrate(**db, path, 6).ok());
        ASSERT_TRUE((*db)
                        ->exec("INSERT INTO players (id, name, token_hash, created_at) VALUES "
                               "('p_1', 'Ann', 'h1', 1), "
                               "('p_2', 'Bob', 'h2', 2)")
                        .ok());
        for (const char* row : {"('g_pub', 'chessence', 'house', '', 0, 0, 0, 'active', '', 1, 0, "
                                "'-', 0)",
                                "('g_a', 'chessence', 'house', '', 0, 0, 1, 'active', '', 1, 0, "
                                "'-', 0)",
                                "('g_b', 'chesica', 'house', '', 0, 0, 1, 'finished', '{}', 1, 2, "
                                "'-', 0)"}) {
            ASSERT_TRUE(
                (*db)
                    ->exec(std::string("INSERT INTO games (id, variant, rules, start_fen, seed, "
                                       "rounds, private, status, result_json, created_at, "
                                       "finished_at, time_control, rated) VALUES ") +
                           row)
                    .ok())
                << row;
        }
    }
    auto store = server::open_sqlite_store(path);
    ASSERT_TRUE(store.ok()) << store.error();
    const std::regex key("[0-9a-f]{32}");
    const auto a = (*store)->game("g_a").value();
    const auto b = (*store)->game("g_b").value();
    ASSERT_TRUE(a && b);
    EXPECT_TRUE(std::regex_match(a->access_key, key)) << a->access_key;
    EXPECT_TRUE(std::regex_match(b->access_key, key)) << b->access_key;
    EXPECT_NE(a->access_key, b->access_key);
    EXPECT_EQ((*store)->game("g_pub").value()->access_key, "");
}

}  // namespace
