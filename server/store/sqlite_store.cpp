#include "server/store/sqlite_store.h"

#include <utility>

#include "server/store/migrations.h"
#include "server/store/sqlite_account_reads.h"
#include "server/store/sqlite_analyses.h"
#include "server/store/sqlite_reads.h"
#include "server/store/sqlite_runs.h"
#include "server/store/sqlite_tournaments.h"

namespace server {

using sqlite::Connection;

namespace {

// Sets the connection up for durability and checks that the file is a sound database.
core::Status configure(Connection& db, const std::string& path) {
    const auto where = "database '" + path + "': ";
    sqlite3_busy_timeout(db.handle(), sqlite::busy_timeout_ms);
    // Reading the schema is the first access to the file: a file that is not a database fails here.
    if (auto schema = db.query_text("SELECT count(*) FROM sqlite_schema"); !schema) {
        const int code = sqlite3_errcode(db.handle());
        const char* problem = code == SQLITE_NOTADB    ? "not a SQLite database"
                              : code == SQLITE_CORRUPT ? "corrupt"
                                                       : "unreadable";
        return core::make_error(where + problem + ": " + schema.error());
    }
    auto mode = db.query_text("PRAGMA journal_mode = WAL");
    if (!mode) {
        return core::make_error(where + "cannot switch to WAL mode: " + mode.error());
    }
    if (*mode != "wal" && !(path == ":memory:" && *mode == "memory")) {
        return core::make_error(where + "cannot switch to WAL mode (journal mode is " + *mode +
                                ")");
    }
    if (auto pragmas = db.exec("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON"); !pragmas) {
        return core::make_error(where + pragmas.error());
    }
    auto check = db.query_text("PRAGMA quick_check");
    if (!check) {
        return core::make_error(where + "corrupt: " + check.error());
    }
    if (*check != "ok") {
        return core::make_error(where + "corrupt: " + *check);
    }
    return core::ok_status();
}

// True when no second connection can open the same database.
bool private_to_one_connection(const std::string& path) {
    return path.empty() || path == ":memory:";
}

}  // namespace

core::Expected<std::optional<PlayerRecord>> SqliteStore::player(std::string_view id) {
    return read([&](Connection& db) { return sqlite_reads::player(db, id); });
}

core::Expected<std::optional<PlayerRecord>> SqliteStore::player_by_token_hash(
    std::string_view token_hash) {
    return read([&](Connection& db) { return sqlite_reads::player_by_token_hash(db, token_hash); });
}

core::Expected<std::optional<GameRecord>> SqliteStore::game(std::string_view id) {
    return read([&](Connection& db) { return sqlite_reads::game(db, id); });
}

core::Expected<std::vector<GameRecord>> SqliteStore::unfinished_games() {
    return read([&](Connection& db) { return sqlite_reads::unfinished_games(db); });
}

core::Expected<std::vector<std::string>> SqliteStore::unfinished_game_ids_of(
    std::string_view player_id) {
    return read(
        [&](Connection& db) { return sqlite_reads::unfinished_game_ids_of(db, player_id); });
}

core::Expected<std::vector<StoredEvent>> SqliteStore::events(std::string_view game_id,
                                                             std::int64_t after_version) {
    return read([&](Connection& db) { return sqlite_reads::events(db, game_id, after_version); });
}

core::Expected<std::vector<ChatLine>> SqliteStore::chat_lines(std::string_view game_id) {
    return read([&](Connection& db) { return sqlite_reads::chat_lines(db, game_id); });
}

core::Expected<std::vector<SeekRecord>> SqliteStore::seeks() {
    return read([&](Connection& db) { return sqlite_reads::seeks(db); });
}

core::Status SqliteStore::check() {
    return read([](Connection& db) -> core::Status {
        auto stmt = db.prepare("SELECT id FROM games LIMIT 1");
        if (!stmt) {
            return core::make_error(stmt.error());
        }
        (*stmt)->step();
        return (*stmt)->status();
    });
}

core::Expected<std::vector<ServerRun>> SqliteStore::server_runs() {
    return read([&](Connection& db) { return sqlite_runs::server_runs(db); });
}

core::Expected<std::optional<AnalysisRecord>> SqliteStore::analysis(std::string_view game_id) {
    return read([&](Connection& db) { return sqlite_analyses::analysis(db, game_id); });
}

core::Expected<std::vector<AnalysisRecord>> SqliteStore::queued_analyses() {
    return read([&](Connection& db) { return sqlite_analyses::queued_analyses(db); });
}

core::Expected<std::optional<TournamentRecord>> SqliteStore::tournament(std::string_view id) {
    return read([&](Connection& db) { return sqlite_tournaments::tournament(db, id); });
}

core::Expected<std::vector<TournamentRecord>> SqliteStore::tournaments(
    const TournamentQuery& query) {
    return read([&](Connection& db) { return sqlite_tournaments::tournaments(db, query); });
}

core::Expected<std::vector<TournamentRecord>> SqliteStore::unfinished_tournaments() {
    return read([&](Connection& db) { return sqlite_tournaments::unfinished_tournaments(db); });
}

core::Expected<std::vector<StoredTournamentEvent>> SqliteStore::tournament_events(
    std::string_view id, std::int64_t after_version) {
    return read([&](Connection& db) {
        return sqlite_tournaments::tournament_events(db, id, after_version);
    });
}

core::Expected<int> SqliteStore::tournaments_created_since(std::string_view player_id,
                                                           std::int64_t since_ms) {
    return read([&](Connection& db) {
        return sqlite_tournaments::tournaments_created_since(db, player_id, since_ms);
    });
}

core::Expected<std::vector<GameRecord>> SqliteStore::tournament_games(
    std::string_view tournament_id) {
    return read([&](Connection& db) { return sqlite_reads::tournament_games(db, tournament_id); });
}

core::Expected<std::optional<AccountRecord>> SqliteStore::account(std::string_view player_id) {
    return read([&](Connection& db) { return sqlite_account_reads::account(db, player_id); });
}

core::Expected<std::optional<AccountRecord>> SqliteStore::account_by_username(
    std::string_view username) {
    return read(
        [&](Connection& db) { return sqlite_account_reads::account_by_username(db, username); });
}

core::Expected<Moderation> SqliteStore::moderation(std::string_view player_id) {
    return read([&](Connection& db) { return sqlite_account_reads::moderation(db, player_id); });
}

core::Expected<std::vector<std::string>> SqliteStore::muted_players() {
    return read([&](Connection& db) { return sqlite_account_reads::muted_players(db); });
}

core::Expected<std::vector<RatingRecord>> SqliteStore::ratings_of(std::string_view player_id) {
    return read([&](Connection& db) { return sqlite_account_reads::ratings_of(db, player_id); });
}

core::Expected<std::vector<GameRating>> SqliteStore::game_ratings(std::string_view game_id) {
    return read([&](Connection& db) { return sqlite_account_reads::game_ratings(db, game_id); });
}

core::Expected<std::vector<GameRating>> SqliteStore::rating_history(std::string_view player_id) {
    return read(
        [&](Connection& db) { return sqlite_account_reads::rating_history(db, player_id); });
}

core::Expected<std::vector<LeaderboardRow>> SqliteStore::leaderboard(std::string_view variant,
                                                                     double max_rd,
                                                                     std::int64_t active_since,
                                                                     int limit) {
    return read([&](Connection& db) {
        return sqlite_account_reads::leaderboard(db, variant, max_rd, active_since, limit);
    });
}

core::Expected<std::vector<GameRecord>> SqliteStore::find_games(const GameQuery& query) {
    return read([&](Connection& db) { return sqlite_account_reads::find_games(db, query); });
}

core::Expected<GameTally> SqliteStore::tally(std::string_view player_id,
                                             std::string_view viewer_id) {
    return read(
        [&](Connection& db) { return sqlite_account_reads::tally(db, player_id, viewer_id); });
}

core::Expected<std::unique_ptr<Store>> open_sqlite_store(const std::string& path) {
    auto db = Connection::open(path);
    if (!db) {
        return core::make_error(db.error());
    }
    if (auto configured = configure(**db, path); !configured) {
        return core::make_error(configured.error());
    }
    if (auto migrated = migrate(**db, path); !migrated) {
        return core::make_error(migrated.error());
    }
    std::unique_ptr<ReadPool> readers;
    if (!private_to_one_connection(path)) {
        auto pool = ReadPool::open(path);
        if (!pool) {
            return core::make_error(pool.error());
        }
        readers = std::move(*pool);
    }
    return std::unique_ptr<Store>(
        std::make_unique<SqliteStore>(std::move(*db), std::move(readers)));
}

}  // namespace server
