#pragma once
// The store for more than one machine: a PostgreSQL database, with SQLite's promises (store.h). One
// writer connection makes batches durable in groups (group_writer.h: one transaction, a savepoint
// per batch, one commit with synchronous_commit on); reads use connections of their own, lent to
// one reader at a time, and never wait for a write. The schema is migrated at start-up
// (postgres_schema.h).
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/expected.h"
#include "server/store/group_writer.h"
#include "server/store/postgres_db.h"
#include "server/store/store.h"

namespace server {

// Connects to `conninfo` (a libpq URI, "postgresql://user:password@host:5432/db"), migrates the
// database and starts the writer. An unreachable server, a refused login or a schema newer than
// this program's gives an error naming the server (never its password) and the problem. Every
// call on every connection of the store waits at most `timeout` for the server (postgres_db.h).
core::Expected<std::unique_ptr<Store>> open_postgres_store(
    const std::string& conninfo, std::chrono::milliseconds timeout = pg::default_timeout);

class PostgresStore final : public Store {
public:
    // The read connections it opens get the writer's timeout.
    PostgresStore(std::string conninfo, std::unique_ptr<pg::Connection> writer);
    // Writes what is queued, then closes every connection.
    ~PostgresStore() override;

    void commit_batch(WriteBatch batch, CommitHandler done) override;
    // A claim on a connection of its own (lent by the read pool), as a short transaction of its
    // own (synchronous_commit on), never in the writer's group: it waits for a former owner's
    // check at most the server's lock_timeout, and the writer goes on meanwhile. A claim that
    // met that lock is tried again after claim_backoff, then twice that, claim_attempts times in
    // all (with the 1 s lock_timeout a pool thread is held about 3.3 s at worst, under a 5 s
    // lease), then fails with claim_contended_prefix (postgres_fences.cpp).
    core::Status claim_game(const ClaimGame& claim) override;
    static constexpr int claim_attempts = 3;
    static constexpr std::chrono::milliseconds claim_backoff{100};
    // A one-row query on a read connection.
    core::Status check() override;

    core::Expected<std::optional<PlayerRecord>> player(std::string_view id) override;
    core::Expected<std::optional<PlayerRecord>> player_by_token_hash(
        std::string_view token_hash) override;
    core::Expected<std::optional<GameRecord>> game(std::string_view id) override;
    core::Expected<std::vector<GameRecord>> unfinished_games() override;
    core::Expected<std::vector<std::string>> unfinished_game_ids_of(
        std::string_view player_id) override;
    core::Expected<std::vector<StoredEvent>> events(std::string_view game_id,
                                                    std::int64_t after_version) override;
    core::Expected<std::vector<ChatLine>> chat_lines(std::string_view game_id) override;
    core::Expected<std::vector<SeekRecord>> seeks() override;
    core::Expected<std::vector<ServerRun>> server_runs() override;
    core::Expected<std::optional<AnalysisRecord>> analysis(std::string_view game_id) override;
    core::Expected<std::vector<AnalysisRecord>> queued_analyses() override;
    core::Expected<std::optional<TournamentRecord>> tournament(std::string_view id) override;
    core::Expected<std::vector<TournamentRecord>> tournaments(
        const TournamentQuery& query) override;
    core::Expected<std::vector<TournamentRecord>> unfinished_tournaments() override;
    core::Expected<std::vector<StoredTournamentEvent>> tournament_events(
        std::string_view id, std::int64_t after_version) override;
    core::Expected<int> tournaments_created_since(std::string_view player_id,
                                                  std::int64_t since_ms) override;
    core::Expected<std::vector<GameRecord>> tournament_games(
        std::string_view tournament_id) override;
    core::Expected<std::optional<AccountRecord>> account(std::string_view player_id) override;
    core::Expected<std::optional<AccountRecord>> account_by_username(
        std::string_view username) override;
    core::Expected<Moderation> moderation(std::string_view player_id) override;
    core::Expected<std::vector<std::string>> muted_players() override;
    core::Expected<std::vector<RatingRecord>> ratings_of(std::string_view player_id) override;
    core::Expected<std::vector<GameRating>> game_ratings(std::string_view game_id) override;
    core::Expected<std::vector<GameRating>> rating_history(std::string_view player_id) override;
    core::Expected<std::vector<LeaderboardRow>> leaderboard(std::string_view variant, double max_rd,
                                                            std::int64_t active_since,
                                                            int limit) override;
    core::Expected<std::vector<GameRecord>> find_games(const GameQuery& query) override;
    core::Expected<GameTally> tally(std::string_view player_id,
                                    std::string_view viewer_id) override;

private:
    // Connections kept open while nobody reads; more are opened while more threads read at once.
    static constexpr std::size_t max_idle_readers = 8;

    // Runs `query` on a read connection of its own; an error naming the server when none can be
    // had. A connection the server dropped is not kept.
    template <class Read>
    auto read(Read&& query) -> decltype(query(std::declval<pg::Connection&>())) {
        auto db = acquire_reader();
        if (!db) {
            return core::make_error(db.error());
        }
        auto result = query(**db);
        release_reader(std::move(*db));
        return result;
    }
    core::Expected<std::unique_ptr<pg::Connection>> acquire_reader();
    void release_reader(std::unique_ptr<pg::Connection> db);

    // The outcome of each batch of the group, every one of them final (committed or rolled back).
    // A server that does not answer fails the group within the timeout (and again each group,
    // until it answers); it never stops the writer.
    std::vector<core::Status> write_group(const std::vector<GroupWriter::Pending>& group);

    std::string conninfo_;
    std::chrono::milliseconds timeout_;
    std::mutex readers_mutex_;
    std::vector<std::unique_ptr<pg::Connection>> idle_readers_;
    std::unique_ptr<pg::Connection> writer_db_;  // the writer thread's alone
    GroupWriter writer_;                         // last: its thread starts once the rest is ready
};

}  // namespace server
