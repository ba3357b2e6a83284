#include "server/store/postgres_store.h"

#include <utility>

#include "server/store/postgres_reads.h"
#include "server/store/postgres_schema.h"
#include "server/store/postgres_writes.h"

namespace server {

using pg::Connection;

core::Expected<std::unique_ptr<Store>> open_postgres_store(const std::string& conninfo,
                                                           std::chrono::milliseconds timeout) {
    auto db = Connection::open(conninfo, timeout);
    if (!db) {
        return core::make_error(db.error());
    }
    const auto where = "PostgreSQL " + pg::redacted(conninfo);
    // What is acknowledged is committed: COMMIT returns once the WAL is flushed, whatever the
    // server's default.
    if (auto durable = (*db)->exec("SET synchronous_commit = on"); !durable) {
        return core::make_error(where + ": " + durable.error());
    }
    if (auto migrated = migrate_postgres(**db, where); !migrated) {
        return core::make_error(migrated.error());
    }
    auto store = std::make_unique<PostgresStore>(conninfo, std::move(*db));
    // A read connection at once, so that a problem shows at start-up.
    if (auto checked = store->check(); !checked) {
        return core::make_error(where + ": " + checked.error());
    }
    return std::unique_ptr<Store>(std::move(store));
}

PostgresStore::PostgresStore(std::string conninfo, std::unique_ptr<Connection> writer)
    : conninfo_(std::move(conninfo)),
      timeout_(writer->timeout()),
      writer_db_(std::move(writer)),
      writer_([this](const auto& group) { return write_group(group); }) {}

PostgresStore::~PostgresStore() {
    writer_.stop();
}

// Where the road of a move reaches the database: the room's batch joins the writer's queue.
void PostgresStore::commit_batch(WriteBatch batch, CommitHandler done) {
    writer_.submit(std::move(batch), std::move(done));
}

namespace {

// Runs one batch inside its own savepoint: either all of it stays in the transaction or none of
// it. False in `usable` when the transaction itself is lost (the connection failed).
core::Status write_batch(Connection& db, const WriteBatch& batch, bool& usable) {
    if (auto opened = db.exec("SAVEPOINT batch"); !opened) {
        usable = false;
        return core::make_error("cannot open a savepoint: " + opened.error());
    }
    core::Status status = core::ok_status();
    for (const auto& op : batch) {
        status = pg_writes::apply_write(db, op);
        if (!status) {
            break;
        }
    }
    if (status) {
        if (auto released = db.exec("RELEASE SAVEPOINT batch"); !released) {
            usable = false;
            return core::make_error("cannot release a savepoint: " + released.error());
        }
        return status;
    }
    if (!db.exec("ROLLBACK TO SAVEPOINT batch") || !db.exec("RELEASE SAVEPOINT batch")) {
        usable = false;
    }
    return status;
}

}  // namespace

// One transaction over the group. A batch that fails is rolled back to its savepoint and the rest
// go on; should the transaction itself fail (the connection lost, the commit refused), every
// batch of the group is told so, and nothing of it was written (a COMMIT whose answer was lost may
// have landed all the same: a room reads back what it wrote, room.cpp). A connection the server
// dropped is opened again: at once when BEGIN finds it gone, else for the next group.
std::vector<core::Status> PostgresStore::write_group(
    const std::vector<GroupWriter::Pending>& group) {
    std::vector<core::Status> outcomes(group.size(), core::ok_status());
    const auto fail_all = [&](const std::string& why) {
        for (auto& outcome : outcomes) {
            if (outcome) {
                outcome = core::make_error(why);
            }
        }
        return outcomes;
    };
    Connection& db = *writer_db_;
    if (!db.healthy() && (!db.reconnect() || !db.exec("SET synchronous_commit = on"))) {
        return fail_all("cannot reach PostgreSQL: " + db.last_failure().message);
    }
    if (auto begun = db.exec("BEGIN"); !begun) {
        // Nothing was written yet: a connection the server dropped since the last group (a
        // restart, a failover) is only found out now, so once, on a fresh connection, again.
        // Not a server that did not answer: the group fails within one timeout, not two.
        if (db.last_failure().unanswered) {
            return fail_all("cannot start a transaction: " + begun.error());
        }
        if (!db.reconnect() || !db.exec("SET synchronous_commit = on")) {
            return fail_all("cannot start a transaction: " + begun.error());
        }
        if (auto again = db.exec("BEGIN"); !again) {
            return fail_all("cannot start a transaction: " + again.error());
        }
    }
    for (std::size_t i = 0; i < group.size(); ++i) {
        bool usable = true;
        outcomes[i] = write_batch(db, group[i].batch, usable);
        if (!usable) {
            const auto why =
                outcomes[i] ? std::string("the transaction failed") : outcomes[i].error();
            (void)db.exec("ROLLBACK");
            return fail_all("rolled back with the transaction, which failed: " + why);
        }
    }
    if (auto committed = db.exec("COMMIT"); !committed) {
        (void)db.exec("ROLLBACK");
        return fail_all("commit failed: " + committed.error());
    }
    return outcomes;
}

core::Expected<std::unique_ptr<Connection>> PostgresStore::acquire_reader() {
    {
        std::lock_guard lock(readers_mutex_);
        if (!idle_readers_.empty()) {
            auto db = std::move(idle_readers_.back());
            idle_readers_.pop_back();
            return db;
        }
    }
    return Connection::open(conninfo_, timeout_);
}

void PostgresStore::release_reader(std::unique_ptr<Connection> db) {
    if (!db->healthy() || db->in_transaction()) {
        return;  // dropped by the server: the next reader opens a new one
    }
    std::lock_guard lock(readers_mutex_);
    if (idle_readers_.size() < max_idle_readers) {
        idle_readers_.push_back(std::move(db));
    }
}

core::Status PostgresStore::check() {
    return read([](Connection& db) -> core::Status {
        auto one = db.query_text("SELECT 1");
        if (!one) {
            return core::make_error(one.error());
        }
        return core::ok_status();
    });
}

core::Expected<std::optional<PlayerRecord>> PostgresStore::player(std::string_view id) {
    return read([&](Connection& db) { return pg_reads::player(db, id); });
}

core::Expected<std::optional<PlayerRecord>> PostgresStore::player_by_token_hash(
    std::string_view token_hash) {
    return read([&](Connection& db) { return pg_reads::player_by_token_hash(db, token_hash); });
}

core::Expected<std::optional<GameRecord>> PostgresStore::game(std::string_view id) {
    return read([&](Connection& db) { return pg_reads::game(db, id); });
}

core::Expected<std::vector<GameRecord>> PostgresStore::unfinished_games() {
    return read([&](Connection& db) { return pg_reads::unfinished_games(db); });
}

core::Expected<std::vector<std::string>> PostgresStore::unfinished_game_ids_of(
    std::string_view player_id) {
    return read([&](Connection& db) { return pg_reads::unfinished_game_ids_of(db, player_id); });
}

core::Expected<std::vector<StoredEvent>> PostgresStore::events(std::string_view game_id,
                                                               std::int64_t after_version) {
    return read([&](Connection& db) { return pg_reads::events(db, game_id, after_version); });
}

core::Expected<std::vector<ChatLine>> PostgresStore::chat_lines(std::string_view game_id) {
    return read([&](Connection& db) { return pg_reads::chat_lines(db, game_id); });
}

core::Expected<std::vector<SeekRecord>> PostgresStore::seeks() {
    return read([&](Connection& db) { return pg_reads::seeks(db); });
}

core::Expected<std::vector<ServerRun>> PostgresStore::server_runs() {
    return read([&](Connection& db) { return pg_reads::server_runs(db); });
}

core::Expected<std::optional<AnalysisRecord>> PostgresStore::analysis(std::string_view game_id) {
    return read([&](Connection& db) { return pg_reads::analysis(db, game_id); });
}

core::Expected<std::vector<AnalysisRecord>> PostgresStore::queued_analyses() {
    return read([&](Connection& db) { return pg_reads::queued_analyses(db); });
}

core::Expected<std::optional<TournamentRecord>> PostgresStore::tournament(std::string_view id) {
    return read([&](Connection& db) { return pg_reads::tournament(db, id); });
}

core::Expected<std::vector<TournamentRecord>> PostgresStore::tournaments(
    const TournamentQuery& query) {
    return read([&](Connection& db) { return pg_reads::tournaments(db, query); });
}

core::Expected<std::vector<TournamentRecord>> PostgresStore::unfinished_tournaments() {
    return read([&](Connection& db) { return pg_reads::unfinished_tournaments(db); });
}

core::Expected<std::vector<StoredTournamentEvent>> PostgresStore::tournament_events(
    std::string_view id, std::int64_t after_version) {
    return read([&](Connection& db) { return pg_reads::tournament_events(db, id, after_version); });
}

core::Expected<int> PostgresStore::tournaments_created_since(std::string_view player_id,
                                                             std::int64_t since_ms) {
    return read([&](Connection& db) {
        return pg_reads::tournaments_created_since(db, player_id, since_ms);
    });
}

core::Expected<std::vector<GameRecord>> PostgresStore::tournament_games(
    std::string_view tournament_id) {
    return read([&](Connection& db) { return pg_reads::tournament_games(db, tournament_id); });
}

core::Expected<std::optional<AccountRecord>> PostgresStore::account(std::string_view player_id) {
    return read([&](Connection& db) { return pg_reads::account(db, player_id); });
}

core::Expected<std::optional<AccountRecord>> PostgresStore::account_by_username(
    std::string_view username) {
    return read([&](Connection& db) { return pg_reads::account_by_username(db, username); });
}

core::Expected<Moderation> PostgresStore::moderation(std::string_view player_id) {
    return read([&](Connection& db) { return pg_reads::moderation(db, player_id); });
}

core::Expected<std::vector<std::string>> PostgresStore::muted_players() {
    return read([&](Connection& db) { return pg_reads::muted_players(db); });
}

core::Expected<std::vector<RatingRecord>> PostgresStore::ratings_of(std::string_view player_id) {
    return read([&](Connection& db) { return pg_reads::ratings_of(db, player_id); });
}

core::Expected<std::vector<GameRating>> PostgresStore::game_ratings(std::string_view game_id) {
    return read([&](Connection& db) { return pg_reads::game_ratings(db, game_id); });
}

core::Expected<std::vector<GameRating>> PostgresStore::rating_history(std::string_view player_id) {
    return read([&](Connection& db) { return pg_reads::rating_history(db, player_id); });
}

core::Expected<std::vector<LeaderboardRow>> PostgresStore::leaderboard(std::string_view variant,
                                                                       double max_rd,
                                                                       std::int64_t active_since,
                                                                       int limit) {
    return read([&](Connection& db) {
        return pg_reads::leaderboard(db, variant, max_rd, active_since, limit);
    });
}

core::Expected<std::vector<GameRecord>> PostgresStore::find_games(const GameQuery& query) {
    return read([&](Connection& db) { return pg_reads::find_games(db, query); });
}

core::Expected<GameTally> PostgresStore::tally(std::string_view player_id,
                                               std::string_view viewer_id) {
    return read([&](Connection& db) { return pg_reads::tally(db, player_id, viewer_id); });
}

}  // namespace server
