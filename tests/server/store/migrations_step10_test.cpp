// Schema step 10 (issue 27) on a database written by the previous version (step 9): the games
// stored before were never claimed, so they read with fence 0, and a claim then sets it.
#include <gtest/gtest.h>

#include "server/storage_test_util.h"
#include "server/store/migrations.h"
#include "server/store/sqlite_db.h"
#include "server/store/sqlite_store.h"

namespace {

TEST(MigrationStep10, GamesStoredBeforeReadWithFenceZero) {
    storage_test::TempDir dir;
    const auto path = dir.file("v9.db");
    {
        auto db = server::sqlite::Connection::open(path);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(server::migrate(**db, path, 9).ok());
        ASSERT_TRUE((*db)
                        ->exec("INSERT INTO players (id, name, token_hash, created_at) VALUES "
                               "('p_1', 'Ann', 'h1', 1), ('p_2', 'Bob', 'h2', 2)")
                        .ok());
        ASSERT_TRUE((*db)
                        ->exec("INSERT INTO games (id, variant, rules, start_fen, seed, rounds, "
                               "private, status, result_json, created_at, finished_at, "
                               "time_control, rated, access_key) VALUES "
                               "('g_a', 'chessence', 'house', '', 0, 0, 0, 'active', '', 1, 0, "
                               "'-', 0, ''), "
                               "('g_b', 'chesica', 'house', '', 0, 0, 0, 'finished', '{}', 1, 2, "
                               "'-', 0, '')")
                        .ok());
        ASSERT_TRUE((*db)
                        ->exec("INSERT INTO game_seats (game_id, seat, player_id) VALUES "
                               "('g_a', 0, 'p_1'), ('g_a', 1, 'p_2'), "
                               "('g_b', 0, 'p_1'), ('g_b', 1, 'p_2')")
                        .ok());
    }
    auto store = server::open_sqlite_store(path);
    ASSERT_TRUE(store.ok()) << store.error();
    for (const auto* id : {"g_a", "g_b"}) {
        const auto game = (*store)->game(id);
        ASSERT_TRUE(game.ok() && game->has_value()) << id;
        EXPECT_EQ((*game)->fence, 0) << id;
        EXPECT_EQ((*game)->seats, (std::vector<std::string>{"p_1", "p_2"})) << id;
    }
    ASSERT_TRUE((*store)->commit_sync({server::ClaimGame{"g_a", 3}}).ok());
    EXPECT_EQ((*store)->game("g_a").value()->fence, 3);
    EXPECT_EQ((*store)->game("g_b").value()->fence, 0);
}

}  // namespace
