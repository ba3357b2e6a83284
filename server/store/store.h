#pragma once
// Where the server keeps what must survive a restart. Rooms are event-sourced: a game's state is
// its record (GameRecord) plus its ordered room events in their stored form (protocol/events.h);
// replaying the events rebuilds the room after a restart.
//
// Every write goes through commit(): a batch of writes that belong together (a game's last move,
// its game_over event and its "finished" mark; a new game and its first event) is made durable in
// one transaction, all or nothing. A room acts on a change (applies, broadcasts, acknowledges) only
// in the handler that commit() calls once the batch is on disk. Reads never wait for a write's
// fsync, and a read that fails says so (an error value), never "not found". Implementations are
// thread-safe.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/expected.h"
#include "server/limits.h"
#include "server/store/account_records.h"
#include "server/store/fences.h"
#include "server/store/tournament_records.h"

namespace server {

struct PlayerRecord {
    std::string id;          // "p_…", public
    std::string name;        // display name
    std::string token_hash;  // SHA-256 (hex) of the secret token; the token itself is never stored
    std::int64_t created_at = 0;  // unix seconds
};

struct GameRecord {
    std::string id;                  // "g_…"
    std::string variant;             // "chessence" | "chesica" | "sniderman"
    std::string rules;               // "house" | "strict"
    std::string start_fen;           // empty for Sniderman (each round is dealt from the seed)
    std::vector<std::string> seats;  // player ids by seat: white/black, or player0/player1
    std::uint64_t seed = 0;          // Sniderman: the match seed
    int rounds = 0;                  // Sniderman: rounds in the match
    bool is_private = false;
    // A private game's access key: 32 hex digits (128 random bits) a spectator must show to watch
    // it or read it over HTTP; "" for a public game.
    std::string access_key;
    bool rated = false;  // rated games change both players' ratings when they end
    // The time control as a record's TimeControl tag writes it (protocol/time_control.h): "-" (or
    // "") unlimited, "300+3", "1/259200".
    std::string time_control = "-";
    std::string status = "active";  // "active" | "finished"
    std::string result_json;        // "" while active, else {"winner":…,"reason":…}
    std::int64_t created_at = 0;    // unix seconds
    std::int64_t finished_at = 0;
    // The newest fencing number that claimed the game (fences.h, ClaimGame); 0 = never claimed
    // (a single node never claims).
    std::int64_t fence = 0;
    // A tournament game (issue 43): the tournament that paired it ("" for any other game), and
    // whether its players may berserk.
    std::string tournament_id{};
    bool berserkable = false;
};

struct StoredEvent {
    std::int64_t version = 0;  // 1, 2, 3, … per game, gapless
    std::string json;          // the event object in its stored form (protocol/events.h)
};

// A game's chat, kept beside its event log (chat is talk, not what happened in the game): two
// channels, the players' and the spectators', each keeping its newest chat_lines_kept lines
// (server/limits.h).
struct ChatLine {
    std::string game_id;
    std::string channel;    // "players" | "spectators"
    std::string player_id;  // the writer
    std::string from;       // the writer's display name when written
    std::string seat;       // the writer's seat ("white", "player0", …); "" for a spectator
    std::string text;
    std::string at;  // UTC, ISO 8601
};

struct SeekRecord {
    std::string id;    // "s_…"
    std::string json;  // the seek as the protocol shows it
    // The node that holds it ("" outside cluster mode) and that node's run (ServerRun::started_at):
    // a seek whose node died is deleted (issue 42).
    std::string node{};
    std::int64_t run = 0;
};

// --- The writes a batch may hold, applied in order.

// A new player; fails (and with it the batch) if the id exists already.
struct InsertPlayer {
    PlayerRecord player;
};
// Changes a player's display name; fails if there is no such player.
struct RenamePlayer {
    std::string id;
    std::string name;
};
// A new game with its seats; fails if the id exists or a seat names an unknown player.
struct CreateGame {
    GameRecord game;
};
// Appends events first_version, first_version + 1, … to a game; fails unless first_version is
// the last stored version + 1 (no gap, no overwrite).
struct AppendEvents {
    std::string game_id;
    std::int64_t first_version = 1;
    std::vector<std::string> events;  // stored-form JSON texts
};
// Marks a game finished with its result.
struct FinishGame {
    std::string game_id;
    std::string result_json;
    std::int64_t finished_at = 0;
};
struct SaveSeek {
    SeekRecord seek;
};
// One run of the server, from its start to the last moment it is known to have been alive (its
// heartbeat, or its clean shutdown), in Unix milliseconds: the gaps between runs are the downtime
// that game clocks refund (server/game/heartbeat.h).
struct ServerRun {
    std::int64_t started_at = 0;
    std::int64_t alive_at = 0;
};
// Writes a run (replacing the one with the same start).
struct RecordRun {
    ServerRun run;
};
// Deletes the seek `id`; or, with `id` empty, every seek held by `node` (a node that is gone).
struct DeleteSeek {
    std::string id;
    std::string node{};
};
// Sets a game's stored fence to `fence` (fences.h): the node holding it owns the game now. Fails
// if there is no such game, or with a fenced error if the stored fence is greater (a newer owner
// claimed it); claiming again with the same fence is fine.
struct ClaimGame {
    std::string game_id;
    std::int64_t fence = 0;
};
// The start of the error Store::claim_game gives when the claim kept meeting a row lock a former
// owner holds (its batch passed its check and has not committed): nothing was written, and the
// claim may be tried again in a moment.
inline constexpr std::string_view claim_contended_prefix = "contended: ";
// Writes nothing; fails the batch with a fenced error if the game's stored fence is greater than
// `fence` (and with an ordinary error if there is no such game). An owner puts it first in every
// batch it commits into its game, so the whole batch is refused once a newer owner claimed it.
struct CheckFence {
    std::string game_id;
    std::int64_t fence = 0;
};
// Adds a line to a game's chat and forgets its channel's lines beyond the newest chat_lines_kept;
// fails if there is no such game.
struct AddChatLine {
    ChatLine line;
};

// A finished game's analysis (issue 25, server/analysis/): asked for and waiting ("queued":
// re-queued after a restart), computed ("done": `json` is the answer of GET
// /api/games/<id>/analysis), or given up ("failed": as if never asked). One per game.
struct AnalysisRecord {
    std::string game_id;
    std::string status;           // "queued" | "done" | "failed"
    std::string json;             // "" unless done
    std::int64_t updated_at = 0;  // unix seconds
    // Queued: its claim (issue 42) — the node and the run of it (ServerRun::started_at) that
    // analyses it, and the positions analysed so far and in all as that run last wrote them.
    std::string node{};
    std::int64_t run = 0;
    std::int64_t positions_done = 0;
    std::int64_t positions_total = 0;
    // Read, never written: when the claiming run was last known alive (its ServerRun::alive_at;
    // 0 when the store has no such run).
    std::int64_t run_alive_at = 0;
    friend bool operator==(const AnalysisRecord&, const AnalysisRecord&) = default;
};
// Writes a game's analysis; fails if there is no such game. "done" and "failed" replace the one
// stored before. "queued" is a claim (issue 42): written only when the game has no analysis, a
// failed one, or a queued one claimed by the run `taken_from` (the claimer's own, to note its
// progress; a dead run's, taken over); otherwise nothing is written and the batch goes on. Of
// claims that race one wins; a read tells the others whose it is.
struct SaveAnalysis {
    AnalysisRecord analysis;
    std::int64_t taken_from = 0;
};

// A new player's token also becomes one of its sessions (account_records.h has the account
// writes, tournament_records.h the tournaments').
using WriteOp = std::variant<InsertPlayer, RenamePlayer, CreateGame, AppendEvents, FinishGame,
                             SaveSeek, DeleteSeek, CreateAccount, SetPassword, SetAdmin,
                             SetModeration, AddSession, RevokeSession, RevokeSessions, RateGame,
                             RecordRun, AddChatLine, SaveAnalysis, ClaimGame, CheckFence,
                             CreateTournament, AppendTournamentEvents, SetTournamentStatus>;
// Writes that belong together: committed in one transaction, all or nothing.
using WriteBatch = std::vector<WriteOp>;
// Called exactly once per batch with ok (durable) or the error (nothing of the batch was written).
// SqliteStore calls it on its writer thread, in the order the batches were queued, once the group
// holding the batch is committed; MemoryStore on the caller's thread. Keep it short (post to a
// strand); commit() in it is fine, commit_sync never (it would wait for itself). A commit_batch
// that throws has not called its handler and never will (the batch was not queued).
using CommitHandler = std::function<void(core::Status)>;

class Store {
public:
    virtual ~Store() = default;

    // Queues `batch`; `done` is called once it is durable or has been rolled back. Counted while
    // in flight (a draining server waits for them) and timed (GET /metrics); the store's own
    // commit_batch does the work.
    void commit(WriteBatch batch, CommitHandler done);
    // Batches handed to commit() whose handler has not returned yet, and ever handed to it.
    std::size_t commits_in_flight() const { return in_flight_.load(); }
    std::uint64_t commits_started() const { return started_.load(); }
    // Batches handed to commit() that failed (their handler got an error, or commit_batch threw):
    // news that the writer may be broken, on which GET /readyz tries a write of its own
    // (server/game/readiness.h).
    std::uint64_t commits_failed() const { return failed_.load(); }
    // How long commits have been in flight without one finishing: 0 while none is in flight. A
    // writer that hangs (a paused database, a disk that does not answer) shows here long before
    // any commit fails; GET /readyz and, in cluster mode, the lease renewal read it.
    std::chrono::milliseconds stalled_for() const;
    // Whether the store answers a read now (GET /readyz asks it on its readiness thread,
    // server/game/readiness.h): ok, or why not.
    virtual core::Status check() = 0;
    // commit() and wait for the outcome. For start-up, tools and tests; never on an I/O thread.
    core::Status commit_sync(WriteBatch batch);
    // Makes `claim` durable with ClaimGame's errors, as commit_sync({claim}) does (the default).
    // PostgresStore runs it on a connection of its own, never in the writer's group, so that a
    // claim waiting for a former owner's row lock holds up no other write; one that kept meeting
    // that lock fails with claim_contended_prefix. Blocks (retries included): never on an I/O
    // thread.
    virtual core::Status claim_game(const ClaimGame& claim) { return commit_sync({claim}); }

    // One-write conveniences over commit_sync.
    core::Status insert_player(const PlayerRecord& player);
    core::Status rename_player(std::string_view id, std::string_view name);
    core::Status create_game(const GameRecord& game);
    core::Status append_event(std::string_view game_id, std::int64_t version,
                              std::string_view event_json);
    core::Status finish_game(std::string_view game_id, std::string_view result_json,
                             std::int64_t finished_at);
    core::Status save_seek(const SeekRecord& seek);
    core::Status delete_seek(std::string_view seek_id);

    // --- Reads: what the last committed batches wrote. Each returns an error (with a message
    // naming what failed, e.g. SQLite's) when the read itself failed, never an empty result: an
    // empty optional or list means "definitely not there".
    virtual core::Expected<std::optional<PlayerRecord>> player(std::string_view id) = 0;
    virtual core::Expected<std::optional<PlayerRecord>> player_by_token_hash(
        std::string_view token_hash) = 0;
    virtual core::Expected<std::optional<GameRecord>> game(std::string_view id) = 0;
    virtual core::Expected<std::vector<GameRecord>> unfinished_games() = 0;
    // The ids of the unfinished games in which `player_id` holds a seat, oldest first (an
    // indexed read: what a hello lists in cluster mode, where every node's games count).
    virtual core::Expected<std::vector<std::string>> unfinished_game_ids_of(
        std::string_view player_id) = 0;
    // Events with version > after_version, in order.
    virtual core::Expected<std::vector<StoredEvent>> events(std::string_view game_id,
                                                            std::int64_t after_version = 0) = 0;
    // A game's kept chat lines, both channels, oldest first.
    virtual core::Expected<std::vector<ChatLine>> chat_lines(std::string_view game_id) = 0;
    virtual core::Expected<std::vector<SeekRecord>> seeks() = 0;
    // Every run of the server, oldest first (an error if they cannot be read).
    virtual core::Expected<std::vector<ServerRun>> server_runs() = 0;
    // A game's analysis, if one was ever asked for.
    virtual core::Expected<std::optional<AnalysisRecord>> analysis(std::string_view game_id) = 0;
    // The analyses still "queued", oldest first (at start-up: they are queued again).
    virtual core::Expected<std::vector<AnalysisRecord>> queued_analyses() = 0;

    // --- Tournaments (tournament_records.h).
    virtual core::Expected<std::optional<TournamentRecord>> tournament(std::string_view id) = 0;
    // The tournaments of query.status (and query.kind unless empty), at most query.limit:
    // "created" soonest starts_at first, "started" soonest ends_at first, "finished" newest
    // ends_at first; ties in creation order.
    virtual core::Expected<std::vector<TournamentRecord>> tournaments(
        const TournamentQuery& query) = 0;
    // The tournaments "created" or "started", oldest created first (what start-up resumes).
    virtual core::Expected<std::vector<TournamentRecord>> unfinished_tournaments() = 0;
    // A tournament's events with version > after_version, in order.
    virtual core::Expected<std::vector<StoredTournamentEvent>> tournament_events(
        std::string_view id, std::int64_t after_version = 0) = 0;
    // How many tournaments `player_id` created at or after since_ms (the per-day limit).
    virtual core::Expected<int> tournaments_created_since(std::string_view player_id,
                                                          std::int64_t since_ms) = 0;
    // The games a tournament paired (GameRecord::tournament_id), oldest first.
    virtual core::Expected<std::vector<GameRecord>> tournament_games(
        std::string_view tournament_id) = 0;

    // --- Accounts, sessions, moderation and ratings (account_records.h).
    virtual core::Expected<std::optional<AccountRecord>> account(std::string_view player_id) = 0;
    // The account with this username in any case.
    virtual core::Expected<std::optional<AccountRecord>> account_by_username(
        std::string_view username) = 0;
    // A player's flags (both false for an unknown player).
    virtual core::Expected<Moderation> moderation(std::string_view player_id) = 0;
    virtual core::Expected<std::vector<std::string>> muted_players() = 0;
    virtual core::Expected<std::vector<RatingRecord>> ratings_of(std::string_view player_id) = 0;
    // The seats of a rated game with their rating change (empty for other games).
    virtual core::Expected<std::vector<GameRating>> game_ratings(std::string_view game_id) = 0;
    // Every rating change of a player, oldest first.
    virtual core::Expected<std::vector<GameRating>> rating_history(std::string_view player_id) = 0;
    // The best ratings in `variant` with RD at most max_rd, last played at or after active_since,
    // of players whose account is not closed; highest first.
    virtual core::Expected<std::vector<LeaderboardRow>> leaderboard(std::string_view variant,
                                                                    double max_rd,
                                                                    std::int64_t active_since,
                                                                    int limit) = 0;
    // A player's finished games, newest first, filtered as the query says.
    virtual core::Expected<std::vector<GameRecord>> find_games(const GameQuery& query) = 0;
    virtual core::Expected<GameTally> tally(std::string_view player_id,
                                            std::string_view viewer_id) = 0;

protected:
    // The store's commit, with commit()'s promise.
    virtual void commit_batch(WriteBatch batch, CommitHandler done) = 0;

private:
    std::atomic<std::size_t> in_flight_{0};
    // When a commit last finished, or the first of those in flight was handed over if later
    // (steady clock, nanoseconds since its epoch).
    std::atomic<std::int64_t> progressed_{0};
    std::atomic<std::uint64_t> started_{0};
    std::atomic<std::uint64_t> failed_{0};
};

}  // namespace server
