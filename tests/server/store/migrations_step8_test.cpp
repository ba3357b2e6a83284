// Schema step 8 (issue 23) on a database written by the previous version (step 7): the chat events
// of each game are copied to its chat, a player's line into the players' channel and a
// spectator's into the spectators'; the log keeps them (it stays gapless) and replays them as
// nothing.
#include <gtest/gtest.h>

#include "server/storage_test_util.h"
#include "server/store/migrations.h"
#include "server/store/sqlite_db.h"
#include "server/store/sqlite_store.h"

namespace {

TEST(MigrationStep8, ChatEventsBecomeChatLines) {
    storage_test::TempDir dir;
    const auto path = dir.file("v7.db");
    {
        auto db = server::sqlite::Connection::open(path);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(server::migrate(**db, path, 7).ok());
        ASSERT_TRUE((*db)
                        ->exec("INSERT INTO players (id, name, token_hash, created_at) VALUES "
                               "('p_1', 'Ann', 'h1', 1), ('p_2', 'Bob', 'h2', 2)")
                        .ok());
        ASSERT_TRUE((*db)
                        ->exec("INSERT INTO games (id, variant, rules, start_fen, seed, rounds, "
                               "private, status, result_json, created_at, finished_at, "
                               "time_control, rated) VALUES "
                               "('g_a', 'chessence', 'house', '', 0, 0, 0, 'active', '', 1, 0, "
                               "'-', 0)")
                        .ok());
        ASSERT_TRUE((*db)
                        ->exec(R"sql(INSERT INTO events (game_id, version, json) VALUES
('g_a', 1, '{"kind":"chat","from":"Ann","player_id":"p_1","seat":"white","text":"good luck","at":"2026-11-21T20:00:00Z"}'),
('g_a', 2, '{"kind":"move","move":"c3-c4","by":"white","ply":1}'),
('g_a', 3, '{"kind":"chat","from":"Sam","player_id":"p_9","seat":null,"text":"nice","at":"2026-11-21T20:01:00Z"}'),
('g_a', 4, 'not json'))sql")
                        .ok());
    }
    auto store = server::open_sqlite_store(path);
    ASSERT_TRUE(store.ok()) << store.error();
    const auto lines = (*store)->chat_lines("g_a");
    ASSERT_TRUE(lines.ok()) << lines.error();
    ASSERT_EQ(lines->size(), 2u);
    EXPECT_EQ((*lines)[0].channel, "players");
    EXPECT_EQ((*lines)[0].from, "Ann");
    EXPECT_EQ((*lines)[0].player_id, "p_1");
    EXPECT_EQ((*lines)[0].seat, "white");
    EXPECT_EQ((*lines)[0].text, "good luck");
    EXPECT_EQ((*lines)[0].at, "2026-11-21T20:00:00Z");
    EXPECT_EQ((*lines)[1].channel, "spectators");
    EXPECT_EQ((*lines)[1].seat, "");
    EXPECT_EQ((*lines)[1].text, "nice");
    EXPECT_EQ((*store)->events("g_a").value().size(), 4u) << "the log stays gapless";
}

}  // namespace
