#pragma once
// The embedded default store: one SQLite file (WAL mode, synchronous=FULL), schema migrations
// applied on open. One writer thread makes batches durable in groups (sqlite_writer.h); reads use
// connections of their own (sqlite_read_pool.h) and never wait for a write.
#include <memory>
#include <string>
#include <utility>

#include "core/expected.h"
#include "server/store/sqlite_db.h"
#include "server/store/sqlite_read_pool.h"
#include "server/store/sqlite_writer.h"
#include "server/store/store.h"

namespace server {

// Opens (creating if absent) the database at `path` and migrates it to the current schema. A file
// that is not a database, is corrupt, unreadable, or from a newer schema gives an error naming the
// path and the problem. ":memory:" gives a database in memory that only the writer's connection
// sees: reads then take turns with the writer's groups (tests use it; the server uses MemoryStore).
core::Expected<std::unique_ptr<Store>> open_sqlite_store(const std::string& path);

// What open_sqlite_store returns. Writes go to the single writer thread: commit() is defined in
// sqlite_writer.cpp, beside the group commit and the SQL it runs. Reads (sqlite_store.cpp) go to
// the read pool, or, for a database only one connection can see (":memory:", or "" for a private
// temporary file), to the writer's own connection between groups.
class SqliteStore final : public Store {
public:
    SqliteStore(std::unique_ptr<sqlite::Connection> db, std::unique_ptr<ReadPool> readers)
        : writer_(std::move(db)), readers_(std::move(readers)) {}

    // Writes what is queued before the read connections and then the write connection close.
    ~SqliteStore() override { writer_.stop(); }

    void commit_batch(WriteBatch batch, CommitHandler done) override;
    // A read of one row on a read connection.
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
    // Runs `query` on a read connection (or the writer's, see the class comment); an error when
    // the query fails or no connection can be had.
    template <class Read>
    auto read(Read&& query) -> decltype(query(std::declval<sqlite::Connection&>())) {
        if (!readers_) {
            return writer_.with_connection(query);
        }
        return readers_->with(query);
    }

    SqliteWriter writer_;
    std::unique_ptr<ReadPool> readers_;  // null when only the writer's connection sees the data
};

}  // namespace server
