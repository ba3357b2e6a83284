// The dialect translation of the shared SQL (sql_text.h) and the named differences, and that every
// shared statement comes out in each dialect with that dialect's placeholders only.
#include "server/store/sql_text.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "server/store/sql_reads.h"
#include "server/store/sql_tournaments.h"
#include "server/store/sqlite_db.h"

namespace {

using server::sql::Dialect;
using server::sql::in_dialect;

TEST(SqlText, PostgresNumbersEachPlaceholderAsSqliteDoes) {
    EXPECT_EQ(in_dialect(Dialect::postgres, "SELECT a FROM t WHERE b = ?1 AND c > ?12 OR d = ?1"),
              "SELECT a FROM t WHERE b = $1 AND c > $12 OR d = $1");
    EXPECT_EQ(in_dialect(Dialect::postgres, "VALUES (?1,?2)"), "VALUES ($1,$2)");
}

TEST(SqlText, SqliteKeepsTheTextAsWritten) {
    const std::string text = "SELECT a FROM t WHERE b = ?1 AND c = '?2'";
    EXPECT_EQ(in_dialect(Dialect::sqlite, text), text);
}

TEST(SqlText, QuotedTextAndBarePlaceholdersAreLeftAlone) {
    EXPECT_EQ(in_dialect(Dialect::postgres, "SELECT '?1', \"col?2\" FROM t WHERE x = ?3"),
              "SELECT '?1', \"col?2\" FROM t WHERE x = $3");
    EXPECT_EQ(in_dialect(Dialect::postgres, "SELECT 'it''s ?1' WHERE y = ?2"),
              "SELECT 'it''s ?1' WHERE y = $2");
    EXPECT_EQ(in_dialect(Dialect::postgres, "WHERE a = ? AND b = ?"), "WHERE a = ? AND b = ?");
    EXPECT_EQ(in_dialect(Dialect::postgres, "WHERE a = ?"), "WHERE a = ?");
}

TEST(SqlText, TheNamedDifferences) {
    EXPECT_EQ(server::sql::insertion_order(Dialect::sqlite), "rowid");
    EXPECT_EQ(server::sql::insertion_order(Dialect::postgres), "seq");
    EXPECT_EQ(server::sql::greatest(Dialect::sqlite), "MAX");
    EXPECT_EQ(server::sql::greatest(Dialect::postgres), "GREATEST");
    EXPECT_EQ(server::sql::share_lock(Dialect::sqlite), "");
    EXPECT_EQ(server::sql::share_lock(Dialect::postgres), " FOR SHARE");
    EXPECT_EQ(server::sql::json_field(Dialect::postgres, "g.result_json", "winner"),
              "json_field(g.result_json, 'winner')");
    EXPECT_EQ(
        server::sql::json_field(Dialect::sqlite, "g.result_json", "winner"),
        "CASE WHEN json_valid(g.result_json) THEN json_extract(g.result_json, '$.winner') END");
}

// SQLite itself: ?N is parameter N wherever it appears, and json_field reads a field or NULL.
TEST(SqlText, SqliteBindsNumberedPlaceholdersByTheirNumber) {
    auto db = server::sqlite::Connection::open(":memory:");
    ASSERT_TRUE(db) << db.error();
    auto stmt = (*db)->prepare(in_dialect(Dialect::sqlite, "SELECT ?2 || ?1 || ?2"));
    ASSERT_TRUE(stmt) << stmt.error();
    (*stmt)->bind(1, std::string_view("a")).bind(2, std::string_view("b"));
    ASSERT_TRUE((*stmt)->step());
    EXPECT_EQ((*stmt)->text(0), "bab");

    const auto field = server::sql::json_field(Dialect::sqlite, "?1", "winner");
    auto json = (*db)->prepare("SELECT COALESCE(" + field + ", 'null')");
    ASSERT_TRUE(json) << json.error();
    (*json)->bind(1, std::string_view(R"({"winner":"white"})"));
    ASSERT_TRUE((*json)->step());
    EXPECT_EQ((*json)->text(0), "white");
}

TEST(SqlText, TheSqliteJsonFieldOfBrokenJsonIsNull) {
    auto db = server::sqlite::Connection::open(":memory:");
    ASSERT_TRUE(db) << db.error();
    const auto field = server::sql::json_field(Dialect::sqlite, "?1", "winner");
    auto json = (*db)->prepare("SELECT COALESCE(" + field + ", 'null')");
    ASSERT_TRUE(json) << json.error();
    (*json)->bind(1, std::string_view("not json"));
    ASSERT_TRUE((*json)->step());
    EXPECT_EQ((*json)->text(0), "null");
}

// Every shared read in one dialect, and the tournaments' statements (sql_tournaments.h).
std::vector<std::string> sql_text_all_reads(Dialect d) {
    namespace r = server::sql::reads;
    return {r::player(d),
            r::player_by_token_hash(d),
            r::games(d, r::game_by_id),
            r::games(d, r::unfinished_games_clause(d)),
            r::seats_of_game(d),
            r::unfinished_game_ids_of(d),
            r::events(d),
            r::chat_lines(d),
            r::seeks(d),
            r::server_runs(d),
            r::analysis(d),
            r::queued_analyses(d),
            r::account(d),
            r::account_by_username_key(d),
            r::moderation(d),
            r::muted_players(d),
            r::ratings_of(d),
            r::rating_in(d),
            r::game_ratings(d),
            r::rating_history(d),
            r::leaderboard(d),
            r::find_games(d, "win"),
            r::find_games(d, "loss"),
            r::find_games(d, "draw"),
            r::find_games(d, ""),
            r::tally(d),
            r::tournament(d),
            r::tournaments(d, "created"),
            r::tournaments(d, "started"),
            r::tournaments(d, "finished"),
            r::unfinished_tournaments(d),
            r::tournament_events(d),
            r::tournaments_created_since(d),
            r::games(d, r::tournament_games_clause(d)),
            server::sql::writes::create_tournament(d),
            server::sql::writes::tournament_log_state(d),
            server::sql::writes::append_tournament_event(d),
            server::sql::writes::set_tournament_status(d)};
}

TEST(SqlText, EveryReadHasOnlyItsDialectsPlaceholders) {
    const std::regex sqlite_placeholder(R"(\?[0-9])");
    const std::regex postgres_placeholder(R"(\$[0-9])");
    for (const auto& text : sql_text_all_reads(Dialect::postgres)) {
        EXPECT_FALSE(std::regex_search(text, sqlite_placeholder)) << text;
        EXPECT_EQ(text.find("rowid"), std::string::npos) << text;
    }
    for (const auto& text : sql_text_all_reads(Dialect::sqlite)) {
        EXPECT_FALSE(std::regex_search(text, postgres_placeholder)) << text;
        EXPECT_EQ(text.find(" seq"), std::string::npos) << text;
    }
}

}  // namespace
