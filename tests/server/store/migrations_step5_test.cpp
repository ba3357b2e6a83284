// Schema step 5 (issue 16) on a database written by the previous version (step 4, clocks): every
// token issued before the upgrade stays valid (it becomes its player's first session), games are
// casual and keep their time control, and nobody has an account or a rating yet.
#include <gtest/gtest.h>

#include "server/game/secrets.h"
#include "server/storage_test_util.h"
#include "server/store/migrations.h"
#include "server/store/sqlite_db.h"
#include "server/store/sqlite_store.h"

namespace {

TEST(MigrationStep5, OldTokensBecomeSessionsAndOldGamesAreCasual) {
    storage_test::TempDir dir;
    const auto path = dir.file("v4.db");
    const auto ann_hash = server::sha256_hex("ann-secret-token-0123456789");
    {
        auto db = server::sqlite::Connection::open(path);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(server::migrate(**db, path, 4).ok());
        ASSERT_TRUE((*db)
                        ->exec("INSERT INTO players VALUES ('p_1', 'Ann', '" + ann_hash +
                               "', 1), ('p_2', 'Bob', 'h2', 2)")
                        .ok());
        ASSERT_TRUE((*db)
                        ->exec("INSERT INTO games VALUES ('g_1', 'chessence', 'house', '', 0, 0, "
                               "0, 'active', '', 1700000000, 0, '300+3')")
                        .ok());
        ASSERT_TRUE(
            (*db)->exec("INSERT INTO game_seats VALUES ('g_1', 0, 'p_1'), ('g_1', 1, 'p_2')").ok());
    }
    auto store = server::open_sqlite_store(path);
    ASSERT_TRUE(store.ok()) << store.error();
    const auto ann = (*store)->player_by_token_hash(ann_hash).value();
    ASSERT_TRUE(ann.has_value());
    EXPECT_EQ(ann->id, "p_1");
    EXPECT_EQ((*store)->player_by_token_hash("h2").value()->id, "p_2");
    EXPECT_FALSE((*store)->player_by_token_hash("h3").value().has_value());
    const auto game = (*store)->game("g_1").value();
    ASSERT_TRUE(game.has_value());
    EXPECT_FALSE(game->rated);
    EXPECT_EQ(game->time_control, "300+3");
    EXPECT_FALSE((*store)->account("p_1").value().has_value());
    EXPECT_TRUE((*store)->ratings_of("p_1").value().empty());
    EXPECT_FALSE((*store)->moderation("p_2").value().muted);
}

}  // namespace
