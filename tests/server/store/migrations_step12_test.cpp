// Schema step 12 (issue 43; PostgreSQL's step 4) on a database written by the previous version:
// the games stored before read as no tournament's ('' and not berserkable), and tournaments can
// be written then.
#include <gtest/gtest.h>

#include "server/storage_test_util.h"
#include "server/store/migrations.h"
#include "server/store/postgres_db.h"
#include "server/store/postgres_store.h"
#include "server/store/sqlite_db.h"
#include "server/store/sqlite_store.h"
#include "server/store/store_kinds.h"

namespace {

// What every migrated store shows: g_a and g_b read as before, of no tournament; a tournament
// and its game can be written and read.
void expect_games_of_no_tournament(server::Store& store) {
    for (const auto* id : {"g_a", "g_b"}) {
        const auto game = store.game(id);
        ASSERT_TRUE(game.ok() && game->has_value()) << id;
        EXPECT_EQ((*game)->tournament_id, "") << id;
        EXPECT_FALSE((*game)->berserkable) << id;
        EXPECT_EQ((*game)->seats, (std::vector<std::string>{"p_1", "p_2"})) << id;
    }
    const auto unfinished = store.unfinished_games();
    ASSERT_TRUE(unfinished.ok()) << unfinished.error();
    ASSERT_EQ(unfinished->size(), 1u);
    EXPECT_EQ(unfinished->front().tournament_id, "");
    EXPECT_TRUE(store.tournament_games("").value().empty());
    server::TournamentRecord t;
    t.id = "t_1";
    t.kind = "arena";
    t.name = "Arena";
    t.variant = "chessence";
    t.config_json = "{}";
    server::GameRecord g;
    g.id = "g_t";
    g.variant = "chessence";
    g.rules = "house";
    g.seats = {"p_1", "p_2"};
    g.tournament_id = "t_1";
    g.berserkable = true;
    ASSERT_TRUE(
        store
            .commit_sync({server::CreateTournament{t},
                          server::AppendTournamentEvents{"t_1", 1, {"{}"}}, server::CreateGame{g}})
            .ok());
    const auto games = store.tournament_games("t_1");
    ASSERT_TRUE(games.ok()) << games.error();
    ASSERT_EQ(games->size(), 1u);
    EXPECT_TRUE(games->front().berserkable);
}

constexpr const char* old_players =
    "INSERT INTO players (id, name, token_hash, created_at) VALUES "
    "('p_1', 'Ann', 'h1', 1), ('p_2', 'Bob', 'h2', 2)";
constexpr const char* old_games =
    "INSERT INTO games (id, variant, rules, start_fen, seed, rounds, private, status, "
    "result_json, created_at, finished_at, time_control, rated, access_key, fence) VALUES "
    "('g_a', 'chessence', 'house', '', 0, 0, 0, 'active', '', 1, 0, '-', 0, '', 2), "
    "('g_b', 'chesica', 'house', '', 0, 0, 0, 'finished', '{}', 1, 2, '-', 1, '', 0)";
constexpr const char* old_seats =
    "INSERT INTO game_seats (game_id, seat, player_id) VALUES "
    "('g_a', 0, 'p_1'), ('g_a', 1, 'p_2'), ('g_b', 0, 'p_1'), ('g_b', 1, 'p_2')";

TEST(MigrationStep12, GamesStoredBeforeAreOfNoTournament) {
    storage_test::TempDir dir;
    const auto path = dir.file("v11.db");
    {
        auto db = server::sqlite::Connection::open(path);
        ASSERT_TRUE(db.ok());
        ASSERT_TRUE(server::migrate(**db, path, 11).ok());
        for (const auto* sql : {old_players, old_games, old_seats}) {
            ASSERT_TRUE((*db)->exec(sql).ok()) << sql;
        }
    }
    auto store = server::open_sqlite_store(path);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ((*store)->game("g_a").value()->fence, 2);
    EXPECT_TRUE((*store)->game("g_b").value()->rated);
    expect_games_of_no_tournament(**store);
}

TEST(MigrationStep12, PostgresGamesStoredBeforeAreOfNoTournament) {
    const auto uri = test::fresh_postgres_uri();
    ASSERT_TRUE(uri.ok()) << uri.error();
    {
        auto store = server::open_postgres_store(*uri);
        ASSERT_TRUE(store.ok()) << store.error();
    }
    {
        auto db = server::pg::Connection::open(*uri);
        ASSERT_TRUE(db.ok()) << db.error();
        // Back to schema version 3, with the games written then.
        ASSERT_TRUE((*db)
                        ->exec("DROP TABLE tournament_events; DROP TABLE tournaments; "
                               "DROP FUNCTION tournament_events_gapless(); "
                               "ALTER TABLE games DROP COLUMN tournament_id, "
                               "DROP COLUMN berserkable; UPDATE schema_version SET version = 3")
                        .ok());
        for (const auto* sql : {old_players, old_games, old_seats}) {
            ASSERT_TRUE((*db)->exec(sql).ok()) << sql;
        }
    }
    auto store = server::open_postgres_store(*uri);
    ASSERT_TRUE(store.ok()) << store.error();
    EXPECT_EQ((*store)->game("g_a").value()->fence, 2);
    expect_games_of_no_tournament(**store);
}

}  // namespace
