#pragma once
// One game room on its own strand: the actor around the game machine (game_machine.h). It orders
// requests, asks the machine what each one does (decide), commits the events to the Store in one
// batch and — only once the batch is durable — applies them to its GameState, broadcasts them
// and acknowledges. A request that arrives while a batch is in flight waits its turn. Nothing is
// applied before it is stored, so a failed commit changes nothing. After a restart a room is
// rebuilt by replaying its stored events through the same `apply`.
//
// Files: room.cpp (life, requests, commits, the clock timer), room_watchers.cpp (watching,
// catch-up, snapshots, presence, spectators, the lobby line), room_rating.cpp (rated games),
// room_bots.cpp (the computer's seat), room_lease.cpp (cluster mode: the game's lease),
// room_tournament.cpp (a tournament game's end, told to its tournament).
#include <array>
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>

#include "protocol/account_messages.h"
#include "protocol/errors.h"
#include "protocol/events.h"
#include "protocol/requests.h"
#include "server/game/chat_limiter.h"
#include "server/game/client.h"
#include "server/game/game_machine.h"
#include "server/game/game_state.h"
#include "server/game/game_views.h"
#include "server/game/throttle.h"
#include "server/game/tournament_news.h"
#include "server/store/store.h"

namespace server {

class ServerState;

// What a client is told when the node it speaks to does not (or no longer) own the game's room:
// it reconnects, and the game goes on where its owner is (issue 27).
inline constexpr const char* lost_room_text =
    "this game is moving to another server: reconnect in a moment and send this again";

// What a spectator's chat line is refused with once the game is over (game_over).
inline constexpr const char* spectators_chat_over_text =
    "the game is over: only its players may chat now";

// What a finished tournament game tells its tournament (issue 43): its winner seat, reason,
// plies, berserks and, for `no_start`, the seat that missed its first move. Nothing for a game
// not of a tournament, or not over.
std::optional<TournamentGameEnd> tournament_game_end(const GameState& state);

class Room : public std::enable_shared_from_this<Room> {
public:
    Room(ServerState& state, GameRecord record, std::vector<std::string> seat_names);
    // In cluster mode, gives the game's lease back unless it was lost.
    ~Room();

    // A new game: builds its state and returns the writes that create it (the game record and its
    // opening events), already applied to this room. Called once, before the room is shared; the
    // room may be shared only after those writes are committed.
    core::Expected<WriteBatch> start_fresh();
    // A stored game: replays its events; its clocks are not charged for the server's downtime,
    // nor for the last `unowned` (a game taken over from a node that died, cluster mode). Called
    // once, before the room is shared.
    core::Status restore(const std::vector<StoredEvent>& events,
                         std::chrono::milliseconds unowned = {});
    // A stored game's chat (Store::chat_lines, oldest first). Called once, before the room is
    // shared.
    void restore_chat(std::vector<ChatLine> lines);

    // Runs a game request on the room strand. A finished room that is idle afterwards (nothing
    // in flight, nothing waiting, nobody watching) leaves the registry, as it does after each
    // commit: the store rebuilds it on demand.
    void post_request(Actor actor, protocol::Request request);
    // A watch answered by a room nobody else holds (ServerState::answer_finished: a finished game
    // read from the store for someone without a seat in it): the snapshot, or the events missed,
    // that a watch gives a new watcher, without keeping the asker as one. Runs on the caller's
    // thread, so the room must not be shared.
    void answer_watch(const Actor& actor, const protocol::Request& request);
    // The players of a just-created game: each gets `game_started` and a snapshot, and watches.
    // `request_id` is echoed to the player `answer_client` (the one whose request created it).
    void post_seated(std::vector<Actor> players, std::uint64_t answer_client = 0,
                     nlohmann::json request_id = nullptr);
    void post_client_gone(std::uint64_t client_id);
    // The client watches another game now: if this one is over, the client stops watching it.
    void post_looked_away(std::uint64_t client_id);
    // Tells the lobby about the room (a restored game in progress appears in the list).
    void post_summary();
    // Looks at the clocks now: a flag that fell or a first move that did not come ends the game.
    void post_clock_check();
    // The measured round trip of a watcher's connection, in milliseconds.
    void post_lag(std::uint64_t client_id, int lag_ms);
    // Runs `then` on the room strand after everything posted to it before.
    void post_barrier(std::function<void()> then);
    // If the computer plays in this game and must act (or answer an offer), it is asked now (after
    // a restart).
    void post_bot_check();

    // Cluster mode (issue 27, room_lease.cpp): the fence of the lease this node holds for the
    // game, set before the room is shared. Every batch then carries a CheckFence, and the room
    // stops acting for the game for good once the lease is lost or a batch is fenced off.
    void set_fence(std::int64_t fence) { fence_ = fence; }
    // The lease with `fence` was lost (the lease renewal thread says so).
    void post_lease_lost(std::int64_t fence);
    // Whether the room stopped acting for its game (readable from any thread).
    bool lost() const { return lost_flag_.load(); }

    const std::string& id() const { return record_.id; }
    // Player ids by seat; fixed for the room's life, so readable from any thread.
    const std::vector<std::string>& seats() const { return record_.seats; }
    bool finished() const { return finished_flag_.load(); }

private:
    using Json = nlohmann::json;
    using RoomEvent = protocol::events::RoomEvent;
    struct Watcher {
        std::weak_ptr<Client> client;
        std::string player_id;
        int lag_ms = 0;  // 0: not measured yet
    };
    // A batch in flight: its events (or its chat line), who asked, and what runs once it is
    // durable.
    struct InFlight {
        std::optional<ChatLine> chat;
        std::vector<RoomEvent> events;
        std::vector<std::string> stored;  // the events' stored-form texts
        std::optional<protocol::events::Result> finish;
        std::function<void()> after;
        Actor requester;
        Json request_id;
        ServerTime sent_at{};  // when it went to the store
    };

    // room.cpp
    ServerTime now() const;
    void handle(const Actor& actor, const protocol::Request& request);
    // The request waits in waiting_ for the batch in flight, unless the room already holds
    // room_waiting_max requests or the client room_waiting_per_client (limits.h): then it is
    // refused with rate_limited and nothing else changes. The computer's answers always wait.
    void wait_turn(const Actor& actor, const protocol::Request& request);
    void dispatch(const Actor& actor, const protocol::Request& request);
    // The players and the spectators watching the room may chat, within the rate limit, unless
    // muted (spectators only while the game goes on and their chat is open); an error for anyone
    // else.
    std::optional<protocol::ProtocolError> may_chat(const Actor& actor,
                                                    const std::optional<int>& seat);
    // Stores a chat line in its channel (the players' or the spectators'); once it is durable it
    // goes to the watchers who read that channel, and the request is acknowledged.
    void say(const Actor& actor, const protocol::Request& request);
    void chat_committed(ChatLine line);
    Command command_for(const Actor& actor, const protocol::Request& request) const;
    // A rematch's new game is created in the same commit as rematch_started. The new game is
    // prepared off the strand (GameFactory::prepare reads names and may take a lease), the
    // room holding its requests meanwhile: a second rematch offer or acceptance waits, and then
    // finds the rematch started. The pool full: the requester gets rate_limited at once.
    void start_rematch(Decision decision, const Actor& actor, const protocol::Request& request);
    // Commits `events` (with `extra` writes) in one batch; the room acts on them once durable and
    // then acknowledges a request with an `id` (`ack`, right away when there is nothing to commit).
    void commit(std::vector<RoomEvent> events, const Actor& actor, const Json& request_id,
                WriteBatch extra = {}, std::function<void()> after = {});
    // Hands `writes` to the store; `batch` comes back to committed() on the strand. The room is
    // busy until then.
    void store(WriteBatch writes, InFlight batch);
    // A failed batch (not fenced, not a chat line) is read back off the strand first, the room
    // still busy: see landed.
    void committed(core::Status status, InFlight batch);
    // The rest of committed, `read_back` the events after the room's version when the batch was
    // read back.
    void finish_commit(core::Status status, InFlight batch,
                       std::optional<core::Expected<std::vector<StoredEvent>>> read_back);
    // Runs `read` on the blocking pool (ServerState::blocking) while the room holds its requests
    // (busy_), then `then(status)` on the strand, busy_ cleared; `then` takes the waiting requests
    // (take_waiting). False — nothing held, nothing runs — when the pool takes no job.
    bool off_strand(std::function<core::Status()> read, std::function<void(core::Status)> then);
    // Once the room is free again: its clock timer, the requests that waited (in order, until one
    // makes it busy again), the computer's turn, and its release when idle.
    void take_waiting();
    // The batch's moves join GET /metrics: the count, and the requester's frame read -> now.
    void count_moves(const InFlight& batch);
    // Whether a batch the store reported failed is in the store all the same (a COMMIT that
    // landed though its answer was lost): `after`, the events after the room's version read back
    // from the store, are exactly the batch's. When they could not be read, or are something
    // else, the room is marked broken: it rebuilds from the store before its next request.
    bool landed(const InFlight& batch, const core::Expected<std::vector<StoredEvent>>& after);
    using Waiting = std::pair<Actor, protocol::Request>;
    // Rebuilds the room's state from the events in the store (after a handler threw, or a batch
    // whose outcome is unknown): they (and a rated game's rating change) are read off the strand,
    // the room holding its requests meanwhile; watchers get a snapshot when the store held events
    // the room had not applied. `first`, the request that found the room broken, runs first once
    // rebuilt. When the events cannot be read the room stays broken: `first` gets internal_error,
    // and each later request tries again first. The pool full: `first` gets rate_limited.
    void rebuild(std::optional<Waiting> first = std::nullopt);
    struct RebuildRead {
        core::Expected<std::vector<StoredEvent>> events = core::make_error("not read");
        std::optional<core::Expected<std::vector<GameRating>>> ratings;  // a rated game's
    };
    // The second half of rebuild, on the strand: replays what was read.
    void rebuilt(RebuildRead read, std::optional<Waiting> first);
    // Outages (issue 42, finding 17): the time the game could not move though this node ran is
    // refunded to its clocks and its first-move window like downtime (resume), before the room
    // decides anything: while its store failed (from the first batch that failed, or rebuild
    // that could not read, until a batch lands, a rebuild succeeds or a heartbeat's write lands)
    // and while the process did not run (NodeOutages' pauses). The spans refunded are kept
    // (refunds_) and refunded again by every replay (a rebuild), which counts only those after
    // the last stored clock reading: a refund is the same whether the room was rebuilt since or
    // not, and it is stored for good in the next reading.
    void refund_outages();
    // The store failed (a batch decided at `since` did not land, or a rebuild could not read).
    void store_failed(ServerTime since);
    // The span of the store's outage to refund at `t`: from its start until `t`, or until a
    // heartbeat landed after the last failure (NodeOutages::store_worked_after), and whether the
    // outage is over by then.
    struct OutageSpan {
        ServerTime from;
        ServerTime until;
        bool over = false;
    };
    OutageSpan outage_span(ServerTime t) const;
    // restore without the rating change (which restore reads from the store).
    core::Status replay_stored(const std::vector<StoredEvent>& events,
                               std::chrono::milliseconds unowned = {});
    void fail(const Actor& actor, const protocol::Request& request, protocol::ErrorCode code,
              std::string message);
    void broadcast(const Frame& frame);
    // Arms the timer for the next moment the clocks decide something.
    void schedule_clock();
    // Ends the game when a flag fell or a first move did not come in time; else re-arms the timer.
    void check_clock();
    // Commits the game_over that time or absence decided (decide_time, decide_absence).
    void end_by_time(std::vector<RoomEvent> ending);
    // Since when each seat is away, for the rules of a game both players left: gone_since_, with
    // the computer's seat (always there, for claims) away as long as its opponent.
    GoneSince absence() const;
    // Whether both players have had no connection for lobby_away_after at `t`.
    bool away_from_lobby(ServerTime t) const;
    // Tells the lobby when the game leaves its list (both players away) or comes back to it.
    void update_lobby_away();

    // room_bots.cpp (issue 25): the computer's seat. Whenever the committed state leaves the bot
    // to act, the room asks the bot pool once for that version; the answer comes back through
    // post_request as an ordinary request of the bot's, dropped if the version moved on. The bot
    // accepts a takeback, declines a draw and accepts a rematch, at once; it offers nothing.
    void bot_turn();
    // The computer as a requester: no connection; `version` is what its answer was thought for.
    Actor bot_actor(std::int64_t version) const;
    // Asks the pool for the bot's action at the current version; false if the pool took no job.
    bool ask_bot();
    // The pool took no job (full, or no thread): bot_turn again after bot_retry_interval.
    void retry_bot_later();
    // A bot's request that the room refuses or drops; true when `actor` is the bot and the
    // request must not run (the drain, or a stale answer).
    bool drop_bot_request(const Actor& actor, const protocol::Request& request);

    // room_lease.cpp (issue 27)
    // Whether this node may still write into the game: always outside cluster mode; else while
    // its lease with fence_ is held.
    bool owns() const;
    // Stops acting for the game for good: timers stop, every watcher and waiting request is told
    // to reconnect (server_restarting), and the registry forgets the room.
    void lose(const std::string& why);
    void refuse_lost(const Actor& actor, const Json& request_id);

    // room_watchers.cpp
    void watch(const Actor& actor, const protocol::Request& request);
    // A private game shows itself to its players and to whoever gives its key; anyone else is
    // refused (forbidden) and false is returned.
    bool may_watch(const Actor& actor, const protocol::Request& request);
    // What a watch is answered with, for a watcher counted already: the snapshot, or the events
    // missed in one frame.
    void send_watch_answer(const Actor& actor, const protocol::Request& request);
    void unwatch(const Actor& actor, const protocol::Request& request);
    void unwatch(std::uint64_t client_id);
    // A finished room with nothing in flight, nothing waiting and nobody watching leaves the
    // registry (and, once nothing holds it, memory, with its lease in cluster mode).
    void release_if_idle();
    void add_watcher(const Actor& actor);
    // Pushes `spectators` when the count changed: the first change at once, then at most one
    // push a second (spectators_throttle_), so N spectators joining cost O(N) frames, not O(N^2).
    void push_spectators();
    // The count to every watcher (and the lobby) if it changed; whether it did.
    bool send_spectator_count();
    // Pushes `presence` when a seated player's connection state changed since the last push.
    void push_presence();
    // After any change of watchers: the spectator count and the players' presence.
    void watchers_changed();
    void publish_summary();
    // publish_summary at once if the lobby has not heard from the room for summary_interval, else
    // at the end of it: the moves of a game cost the lobby one summary a second, not one a move
    // (the lobby pushes its changes once a second anyway).
    void publish_summary_soon();
    int spectator_count() const;
    bool online(const std::string& player_id) const;
    std::optional<int> seat_lag(int seat) const;
    std::array<SeatPresence, 2> seat_presence() const;
    // The snapshot as `viewer_id` sees it: a private game's players also get its access key; the
    // players read the players' chat, everyone else the spectators'.
    Json snapshot(const std::string& viewer_id) const;
    // The chat lines `viewer_id` may read, oldest first.
    Json chat_json(const std::string& viewer_id) const;

    // room_rating.cpp: rated games (issue 16)
    // The write that rates the game ending with `result` (with its finished mark), if it is rated.
    std::optional<WriteOp> rating_write(const protocol::events::Result& result) const;
    // Reads the game's stored rating change (a rated game that is over) into rating_change_, on
    // the calling thread: for a room not shared yet (restore).
    void load_rating_change();
    // rating_change_ from the game's stored rating rows (an error is logged: none then).
    void set_rating_change(const core::Expected<std::vector<GameRating>>& rows);
    // Once the end of a rated game is stored: reads its rating change off the strand (the room
    // holding its requests meanwhile) and pushes it to the room.
    void announce_rating_change();
    Json rating_change_json() const;

    // room_tournament.cpp (issue 43): once the end of a tournament game is durable, the
    // tournament hears of it (ServerState::tournament_news), on the strand. A room restored or
    // rebuilt from the store that finds its game over does not tell it again: the tournament
    // reconciles its games from the store by itself.
    void tell_tournament();

    ServerState& state_;
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    GameRecord record_;
    std::vector<std::string> seat_names_;

    GameState game_;                // as the committed events made it
    std::vector<std::string> log_;  // committed events in stored form, by version - 1
    // By version - 1: the position string after a move event of the game (or of its Sniderman
    // round), for catch-ups; empty for other events.
    std::vector<std::string> fens_by_version_;
    // A batch is in flight, or a read off the strand (off_strand) is pending; requests wait in
    // waiting_.
    bool busy_ = false;
    bool broken_ = false;  // a rebuild could not read the store
    std::deque<Waiting> waiting_;
    boost::asio::steady_timer clock_timer_;
    std::vector<protocol::SeatRatingChange> rating_change_;  // a rated game's, once it is over
    std::atomic<bool> finished_flag_{false};

    ChatLimiter chat_limiter_;
    // The newest chat lines (at most chat_lines_kept each): [0] the players', [1] the spectators'.
    std::array<std::deque<ChatLine>, 2> chat_;
    std::map<std::uint64_t, Watcher> watchers_;
    GoneSince gone_since_;     // each seat's, while it has no connection
    bool lobby_away_ = false;  // left the lobby's list: both players away (away_from_lobby)
    int last_spectators_ = 0;
    Throttle spectators_throttle_;  // send_spectator_count, at most once a second
    Throttle summary_throttle_;     // publish_summary, at most once a second
    std::array<bool, 2> last_online_{false, false};
    std::array<std::optional<int>, 2> last_lag_;

    std::optional<int> bot_seat_;           // the computer's seat, in a game against it
    std::int64_t bot_asked_ = -1;           // the version the bot pool was asked for
    std::int64_t bot_answered_offer_ = -1;  // the version whose offer the bot answered
    boost::asio::steady_timer bot_timer_;   // asks the pool again when it was full
    bool bot_retry_armed_ = false;

    // Outages (refund_outages): since when the store has failed (nothing landed since) and when
    // it last failed; the spans refunded so far (and the takeover's unowned span), up to when,
    // and how many of the node's pauses the room has seen.
    std::optional<ServerTime> outage_since_;
    ServerTime outage_seen_{};
    Downtime refunds_;
    ServerTime refunded_until_{};
    std::uint64_t pauses_seen_ = 0;

    std::int64_t fence_ = 0;  // the lease's fence in cluster mode; 0 alone
    std::atomic<bool> lost_flag_{false};
};

}  // namespace server
