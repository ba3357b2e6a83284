#pragma once
// What every session shares (the Beast chat example's shared_state): the store, the limits, the
// lobby, the room directory (room_directory.h: the rooms in memory and the loads of the others),
// the game factory (game_factory.h: new games, and the restore at start) and the open sessions for
// shutdown. Each room's state lives on the room's own strand.
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json_fwd.hpp>

#include "core/expected.h"
#include "server/analysis/analyses.h"
#include "server/blocking_pool.h"
#include "server/bots/bot_pool.h"
#include "server/game/account_news.h"
#include "server/game/address_limits.h"
#include "server/game/client.h"
#include "server/game/downtime.h"
#include "server/game/heartbeat.h"
#include "server/game/identity.h"
#include "server/game/login_limiter.h"
#include "server/game/passwords.h"
#include "server/game/readiness.h"
#include "server/game/sessions.h"
#include "server/game/time_source.h"
#include "server/game/tournament_news.h"
#include "server/limits.h"
#include "server/puzzles/puzzle_collection.h"
#include "server/store/store.h"
#include "server/tournament/arena_schedule.h"

namespace protocol {
struct Request;
}

namespace server {

class GameFactory;
class Lobby;
class Relay;
class Room;
class RoomAdoption;
class RoomDirectory;
namespace cluster {
class Leases;
}

// The start of the error RoomDirectory::room gives for a game another node owns (cluster mode):
// the client is told to reconnect (server_restarting), not that the game failed to load.
inline constexpr std::string_view owned_elsewhere_prefix = "owned elsewhere: ";
// That error: "owned elsewhere: node <owner> owns game <game_id>".
std::string owned_elsewhere_error(std::string_view owner, std::string_view game_id);
// The owner such an error names; empty for any other error.
std::string owner_named_in(std::string_view error);

class ArenaScheduler;
class Tournaments;

class ServerState {
public:
    // `time` drives the game clocks (the steady clock when null).
    ServerState(boost::asio::io_context& io, Store& store, Limits limits, std::string web_root,
                std::shared_ptr<TimeSource> time = nullptr);
    ~ServerState();

    boost::asio::io_context& io() { return io_; }
    Store& store() { return store_; }
    const Limits& limits() const { return limits_; }
    const std::string& web_root() const { return web_root_; }
    Lobby& lobby() { return *lobby_; }
    Identities& identities() { return identities_; }
    PasswordWorker& passwords() { return passwords_; }
    LoginLimiter& login_limiter() { return login_limiter_; }
    AddressLimits& address_limits() { return address_limits_; }
    // The threads for calls that may block (store reads, claims, Redis, files): no I/O thread,
    // strand or pub/sub thread makes such a call itself (issue 42).
    BlockingPool& blocking() { return blocking_; }
    // The computer players' threads (issue 25).
    BotPool& bots() { return bots_; }
    // The game analyses queued and running on them (issue 25).
    Analyses& analyses() { return analyses_; }
    // Who this node is in the store: its name in cluster mode ("" otherwise) and its run
    // (ServerRun::started_at, 0 before start_run): the holder of the seeks it stores and the
    // claimant of the analyses it runs (issue 42), whose death another node can see.
    AnalysisClaimant holder() const;
    // Whether the node can write and read its store and, in cluster mode, reach Redis (GET
    // /readyz); its thread is started by the server once the games are restored.
    Readiness& readiness() { return readiness_; }
    // The addresses of limits().trusted_proxies, parsed once (net/client_address.h).
    const std::vector<std::string>& trusted_proxies() const { return trusted_proxies_; }
    void set_trusted_proxies(std::vector<std::string> addresses) {
        trusted_proxies_ = std::move(addresses);
    }
    // The puzzle bank (issue 25), read once at start; unavailable until set.
    const PuzzleCollection& puzzles() const { return *puzzles_; }
    void set_puzzles(std::shared_ptr<const PuzzleCollection> puzzles) {
        puzzles_ = std::move(puzzles);
    }

    // Mutes and sign-outs, here and (cluster mode) on every node (account_news.h).
    AccountNews& account_news() { return account_news_; }
    // Where tournament games' rooms send their ends (issue 43): the tournaments, set once at
    // start-up before any room runs; null until then (a tournament game's end is then only
    // stored, and the tournament learns it from the store when it resumes).
    TournamentNews* tournament_news() const { return tournament_news_; }
    void set_tournament_news(TournamentNews* news) { tournament_news_ = news; }
    const TimeSource& time() const { return *time_; }
    // The same, to listen to its jumps (TimeSource::on_jump).
    TimeSource& time_source() { return *time_; }
    // When the server was down before this run (set by start_run; none before).
    const Downtime& downtime() const { return downtime_; }
    // The time this node's games could not move though it ran (heartbeat.h): pauses, lost games.
    NodeOutages& outages() { return heartbeat_.outages(); }

    // Cluster mode (issue 27): before games().restore(), connects to Redis for the rooms' leases.
    // From then on a room is loaded (and a game created) only with its lease, whose fence the
    // store records (ClaimGame) and checks with every batch; a game another node owns is not
    // loaded (RoomDirectory::room gives an owned_elsewhere_prefix error). `node_id` empty: hostname
    // + random.
    core::Status join_cluster(const std::string& redis_url, std::string node_id,
                              std::chrono::milliseconds lease_ttl);
    // The leases in cluster mode, else null.
    cluster::Leases* leases() { return leases_.get(); }
    // Whether this node may hold games (cluster mode): not while its store's writer has finished
    // no commit for a quarter of `lease_ttl` (a hung writer), nor while GET /readyz knows it
    // cannot write. Its leases are renewed, and orphaned games adopted (room_adoption.h), only
    // while this says ok.
    core::Status fit_to_own_games(std::chrono::milliseconds lease_ttl);
    // The relay to the owners of other nodes' games in cluster mode (relay.h), else null.
    Relay* relay() { return relay_.get(); }

    // At start-up, first thing in games().restore(): starts the heartbeat, which records this run
    // in the store, and learns the downtime before it (downtime()). An error if the store cannot
    // be read or written.
    core::Status start_run();
    // Cluster mode, once games().restore() has rebuilt the games: from now on the games whose
    // owner dies are taken here too (room_adoption.h). Nothing outside cluster mode.
    void start_adoption();
    // How games come to be (game_factory.h): a new game prepared and registered, and at start-up
    // every unfinished game restored.
    GameFactory& games() { return *games_; }
    // This node's tournaments (tournaments.h, issue 43): created, resumed at start-up, asked.
    Tournaments& tournaments() { return *tournaments_; }
    // Once the tournaments are resumed: the server creates the arenas of `schedule` itself from
    // now on (arena_scheduler.h; nothing in cluster mode). Stopped by begin_drain.
    void start_scheduling(tournament::ArenaSchedule schedule);
    // The rooms in memory and the loads of the others (room_directory.h): a game not in memory is
    // looked up there, on the blocking pool.
    RoomDirectory& rooms() { return *rooms_; }
    // Forwarding to rooms(), kept for the rooms' own calls (room_watchers.cpp, room_lease.cpp):
    // the room of `game_id` if it is in memory, else null (reads nothing); a finished room
    // dropped from memory; `room` forgotten (it stopped acting for its game).
    std::shared_ptr<Room> loaded_room(std::string_view game_id);
    void release_room(std::string_view game_id);
    void forget_room(std::string_view game_id, const Room* room);
    // Unfinished games in which the player holds a seat: this node's rooms; in cluster mode every
    // node's, from the store (this node's alone if the store cannot be read) — then it blocks, so
    // only on the blocking pool when leases() is set.
    std::vector<std::string> unfinished_games_of(std::string_view player_id);
    // This node's rooms only (memory: callable on any thread).
    std::vector<std::string> unfinished_games_here(std::string_view player_id);
    std::size_t room_count();
    // Every room looks at its clocks again (after the time source jumped).
    void check_clocks();

    // Unfinished games among the rooms in memory (GET /metrics).
    std::size_t games_active();

    // The open sessions (sessions.h): they join and leave; the drain tells and closes them.
    Sessions& sessions() { return sessions_; }
    // The drain (server.h): from now on no new session is taken and every request but ping is
    // refused with server_restarting; each open session is told `server_restart`; the bots stop
    // thinking (they think again after the restart).
    void begin_drain();
    // Runs `then` on some thread once every handler already posted to the lobby's strand and to
    // each room's strand has run (each strand's queue is first in, first out).
    void after_posted_work(std::function<void()> then);
    // Stops taking new sessions and closes every open one with `code` (1001 going away by
    // default; 1012 service restart at the end of a drain), each after the frames it has queued.
    void close_all(std::uint16_t code = 1001);
    bool stopping() const { return stopping_.load(); }

private:
    boost::asio::io_context& io_;
    Store& store_;
    Limits limits_;
    // Stopped first thing in ~ServerState: no job runs once anything it may use starts to go.
    BlockingPool blocking_;
    std::string web_root_;
    Identities identities_;
    PasswordWorker passwords_;
    LoginLimiter login_limiter_;
    AddressLimits address_limits_;
    std::vector<std::string> trusted_proxies_;
    std::shared_ptr<const PuzzleCollection> puzzles_ = std::make_shared<const PuzzleCollection>(
        PuzzleCollection::unavailable("no puzzle bank was loaded"));
    std::shared_ptr<TimeSource> time_;
    int time_listener_ = 0;
    Heartbeat heartbeat_;
    Readiness readiness_;  // its harmless write is the heartbeat's
    Downtime downtime_;
    std::shared_ptr<Lobby> lobby_;
    BotPool bots_;
    Analyses analyses_;  // after bots_: ~ServerState stops the pool before either goes

    Sessions sessions_;
    AccountNews account_news_{sessions_};
    TournamentNews* tournament_news_ = nullptr;

    // Before rooms_: a room gives its lease back as it goes. on_lost reaches rooms_ only while
    // lost_open_ (closed first thing in ~ServerState).
    std::unique_ptr<cluster::Leases> leases_;
    std::mutex lost_mutex_;
    bool lost_open_ = true;
    std::unique_ptr<RoomDirectory> rooms_;
    std::unique_ptr<GameFactory> games_;  // holds nothing but this state
    std::unique_ptr<Tournaments> tournaments_;
    std::shared_ptr<ArenaScheduler> scheduler_;  // set once by start_scheduling, else null
    // Cluster mode: the sweep for orphaned games, started once the games are restored and stopped
    // first thing in ~ServerState (before the pool and the leases go).
    std::shared_ptr<RoomAdoption> adoption_;
    // After rooms_ (it goes first): its remote clients leave the rooms, and its receiving thread
    // looks rooms up until it stops.
    std::unique_ptr<Relay> relay_;

    std::atomic<bool> stopping_{false};
};

}  // namespace server
