#pragma once
// The lobby, on its own strand: open seeks, the games in progress, and the clients subscribed to
// them. A subscriber gets the whole lobby once (`lobby`: the seeks, the first page of games), then
// each change as it happens (seek_added, seek_removed, game_added, game_removed), serialised once
// for all; changed counters (moves, spectators) are gathered into one game_changed a second.
// A seek belongs to its player, not to the connection that created it: it follows the player to
// a new connection (a reload), and is withdrawn only when the player cancels it, when a public
// seek's player has had no connection for Limits::seek_grace, or when a private invitation is
// Limits::invite_ttl old.
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <nlohmann/json.hpp>

#include "protocol/requests.h"
#include "server/game/client.h"
#include "server/store/store.h"

namespace server {

class Room;
class ServerState;
struct PreparedGame;

// What the lobby needs to know from the store about the player who asks to create, accept or
// quick-pair a seek (issue 42, finding 6: the lobby's strand reads nothing): their ratings (an
// account's) and, in cluster mode, how many unfinished games they sit in on every node. Read on
// the blocking pool before the request reaches the lobby (read_asker_facts).
struct AskerFacts {
    std::vector<RatingRecord> ratings;            // as stored; an account's only
    std::optional<std::size_t> unfinished_games;  // cluster mode; else the lobby counts its rooms
};

// Whether `request` of `actor` needs AskerFacts read first: a seek_create (the computer too),
// seek_accept or quick_pair by an account, or by anyone in cluster mode.
bool needs_asker_facts(ServerState& state, const Actor& actor, const protocol::Request& request);
// Reads them (blocks: the blocking pool only); an error when the store cannot be read.
core::Expected<AskerFacts> read_asker_facts(ServerState& state, const Actor& actor);

class Lobby : public std::enable_shared_from_this<Lobby> {
public:
    Lobby(ServerState& state, boost::asio::io_context& io);

    // Runs a lobby request (lobby_subscribe/unsubscribe, lobby_games, seek_*, quick_pair) on the
    // lobby strand, with `facts` read for it when needs_asker_facts says so (the caller read them
    // on the pool, keeping its requests in order).
    void post_request(Actor actor, protocol::Request request, AskerFacts facts = {});
    // The same for a caller that did not read the facts (a request relayed from another node):
    // read on the pool first when needed; `actor` gets internal_error if they cannot be read, or
    // rate_limited when the pool is busy.
    void post_request_reading(Actor actor, protocol::Request request);
    // A session said hello as `actor`: the player's open seeks now follow this connection, which
    // gets a `seek_created` for each of them. In cluster mode the nodes holding the player's other
    // seeks are told (Relay::present), and each counts the connection as the player's for them:
    // `relayed` is such a word from another node (only this node's seeks follow it).
    void post_player_connected(Actor actor, bool relayed = false);
    // A session closed: it stops receiving pushes; its player's seeks move to another of the
    // player's connections, or wait for the player's return (see the class comment).
    void post_client_gone(std::uint64_t client_id);
    // Runs `then` on the lobby strand after everything posted to it before.
    void post_barrier(std::function<void()> then);
    // A room reports its public summary (null summary: the game left the lobby).
    void post_game_summary(std::string game_id, nlohmann::json summary);

    // Cluster mode (issue 27, lobby_cluster.cpp): the lobby is shared. Each node tells the others
    // (Relay::publish_lobby) of its seeks and games as they come and go, and shows theirs beside
    // its own; a seek is paired only by the node that holds it (an acceptance on another node is
    // relayed there), so one seek is never paired twice.
    // Records of other nodes' lobbies (a JSON array, from the relay's receiving thread).
    void post_remote(nlohmann::json records);
    // `node` is gone: its seeks and games leave this lobby, and its seeks the store.
    void post_node_gone(std::string node);
    // Records are at most once (a seek cancelled while Redis was down is never unseeked on the
    // others), so the mirrors converge (issue 42, finding 16): a node answers `sync` with its
    // whole state in paced pages, and a receiver REPLACES what it shows of that node by it; every
    // anti_entropy_interval each node publishes a digest of what it holds, and a node whose
    // mirror of it differs asks that node alone for its state.
    static constexpr std::chrono::seconds anti_entropy_interval{10};
    static constexpr std::size_t state_page_records = 100;  // seek or game records per page
    static constexpr std::chrono::milliseconds state_page_interval{20};

private:
    struct Seek {
        std::string id;
        std::string node;  // cluster mode: the node that holds it; empty: this one
        core::VariantId variant = core::VariantId::chessence;
        core::RuleSet rules = core::RuleSet::house;
        std::optional<core::Side> side;
        int rounds = 3;
        bool is_private = false;
        bool rated = false;
        std::optional<int> rating_min;  // the accepter's rating must be within
        std::optional<int> rating_max;
        int creator_rating = 0;  // shown rating in the seek's variant (accounts)
        protocol::TimeControl clock;
        Actor creator;
        std::int64_t created_at = 0;
        nlohmann::json json;
        // When the seek is withdrawn unless its player acts: a private invitation's end of life,
        // or the end of a public seek's grace while its player has no connection.
        std::optional<std::chrono::steady_clock::time_point> expires;
    };

    void handle(const Actor& actor, const protocol::Request& request, const AskerFacts& facts);
    // lobby_presence.cpp: who is connected, seeks following their player, expiry
    void player_connected(const Actor& actor, bool relayed);
    void client_gone(std::uint64_t client_id);
    // Another open connection of `player_id` than `except`, if any.
    std::optional<Actor> connection_of(const std::string& player_id, std::uint64_t except) const;
    // Sets the timer to the earliest `expires` of the open seeks.
    void arm_expiry();
    // Withdraws every seek whose time is up, tells its player's connection, pushes once.
    void expire_seeks();

    void game_summary(const std::string& game_id, nlohmann::json summary,
                      const std::string& node = {});
    void create_seek(const Actor& actor, const protocol::Request& request, const AskerFacts& facts);
    void cancel_seek(const Actor& actor, const protocol::Request& request);
    // In cluster mode a seek not known here yet (made on another node a moment ago, its news on
    // the way) is looked for again once, unknown_seek_wait later, before no_such_seek (`waited`).
    void accept_seek(const Actor& actor, const std::string& seek_id, const nlohmann::json& id,
                     const AskerFacts& facts, bool waited = false);
    // The game of an accepted seek, prepared off the strand (GameFactory::prepare on the
    // blocking pool), is back: stored with the seek's deletion, or the seek goes back on the book
    // and `actor` gets internal_error. `players` by seat.
    void seek_game_prepared(Seek seek, std::vector<Actor> players, Actor actor, nlohmann::json id,
                            core::Expected<PreparedGame> prepared);
    // Counts (`delta` 1) or stops counting (-1) a game being created for each of `players`.
    void count_creating(const std::vector<Actor>& players, int delta);
    // Puts back a seek taken off the book for a pairing that did not happen, in its place (oldest
    // first); nothing if it is back already.
    void put_back(Seek seek);
    // Stores a new game (`writes`, from GameFactory::prepare, plus the caller's). Back on the lobby
    // strand: once stored, the room joins the server and `players` are seated, `actor`'s request
    // `id` answered with the snapshot; if not, `actor` gets internal_error. Either way
    // `after(stored)` runs last. `what` names the game in the log.
    void store_new_game(WriteBatch writes, std::shared_ptr<Room> room, std::vector<Actor> players,
                        Actor actor, nlohmann::json id, std::string what,
                        std::function<void(bool stored)> after);
    // The limit of unfinished games per player: the refusal's text when `actor` has reached it
    // (the games being created for the player count).
    std::optional<std::string> too_many_games(const Actor& actor, const AskerFacts& facts) const;
    void quick_pair(const Actor& actor, const protocol::Request& request, const AskerFacts& facts);
    // lobby_computer.cpp (issue 25): seek_create with "opponent": "computer" starts the game at
    // once against the computer at the asked level; no seek is listed.
    void play_computer(const Actor& actor, const protocol::Request& request,
                       const AskerFacts& facts);
    // lobby_ratings.cpp (issue 16): rated seeks, rating ranges, closest-rating pairing.
    // The error that keeps `actor` from creating (or quick-pairing) this seek, if any.
    std::optional<protocol::ProtocolError> seek_refusal(const Actor& actor,
                                                        const protocol::Request& request) const;
    // Adds the rating fields to a new seek (its json too).
    static void rate_seek(Seek& seek, const Actor& actor, const protocol::Request& request,
                          const AskerFacts& facts);
    // The error that keeps `actor` from accepting `seek`, if any.
    static std::optional<protocol::ProtocolError> accept_refusal(const Actor& actor,
                                                                 const Seek& seek,
                                                                 const AskerFacts& facts);
    // The open seek quick pairing gives `actor`: the compatible one whose creator's rating is
    // closest to the actor's, the oldest among equals; null if none.
    const Seek* best_match(const Actor& actor, const protocol::Request& request,
                           const AskerFacts& facts) const;
    void store_async(WriteOp write);
    // Withdraws a seek (and tells the subscribers when it was listed).
    void remove_seek(const std::string& seek_id);
    void send_to_subscribers(const Frame& frame);
    // The game_changed timer: armed by the first changed counter, fires changes_interval later.
    void arm_changes();
    void flush_changes();
    Frame lobby_frame(const nlohmann::json& id) const;
    // Up to `limit` game summaries from the `offset`-th newest on.
    nlohmann::json games_page(std::size_t offset, std::size_t limit) const;

    static constexpr std::chrono::seconds changes_interval{1};
    static constexpr std::chrono::milliseconds unknown_seek_wait{300};

    struct ListedGame {
        nlohmann::json summary;
        std::uint64_t order = 0;                    // the higher, the newer
        mutable std::optional<std::uint64_t> hash;  // digest_of's, until the summary changes
    };

    // lobby_cluster.cpp (issue 27)
    void remote(const nlohmann::json& record);
    // Publishes `record` to the other nodes (nothing outside cluster mode).
    void share(const nlohmann::json& record) const;
    nlohmann::json seek_record(const Seek& seek) const;
    // The seek another node describes, or null when the record does not describe one.
    static std::optional<Seek> seek_from_record(const nlohmann::json& record);
    // Relays `actor`'s request about another node's `seek` (accept, cancel) to that node.
    void relay_to_holder(const Actor& actor, const Seek& seek, protocol::RequestType type,
                         const nlohmann::json& id);
    void node_gone(const std::string& node);
    // Convergence (lobby_cluster.cpp). A round of this node's state: the ids held when it began,
    // sent (those still held) a page at a time, each page's records followed by a `state` record
    // naming them, the last page saying so.
    struct Sharing {
        bool active = false;
        bool again = false;  // asked for while a round was going out: one more after it
        std::uint64_t round = 0;
        std::size_t page = 0;
        std::deque<std::string> seeks;
        std::deque<std::string> games;
    };
    // Another node's round being received: what it says it holds, and what it told of since the
    // round began (its live records).
    struct Mirroring {
        std::uint64_t round = 0;
        std::size_t next_page = 0;
        std::set<std::string> seeks;
        std::set<std::string> games;
    };
    // Begins a round of this node's state (or asks for one more after the one going out).
    void share_state();
    void share_state_page();
    // A `state` record of `node`'s; its last page replaces what this lobby shows of it.
    void mirror_state(const std::string& node, const nlohmann::json& record);
    // Removes `node`'s seeks and games that its completed round did not name.
    void replace_mirror(const std::string& node, const Mirroring& held);
    // A live record of `node`'s, while one of its rounds is being received: it holds `id` now.
    void note_held(const std::string& node, const std::string& id, bool game);
    // Count and hash of what `node` holds as this lobby shows it (empty: this node's own), seek
    // ids and each game's id and summary: equal on both sides when no record was lost.
    std::string digest_of(const std::string& node) const;
    // Every anti_entropy_interval, from the first record of another node on: this node's digest.
    void arm_digest();

    ServerState& state_;
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    std::map<std::uint64_t, std::weak_ptr<Client>> subscribers_;
    std::map<std::uint64_t, Actor> connected_;  // every session that said hello, by client id
    boost::asio::steady_timer expiry_timer_;
    std::deque<Seek> seeks_;  // oldest first
    // Games handed over to be created or stored and not registered yet, by player id.
    std::map<std::string, int> creating_;
    std::map<std::string, ListedGame> games_;
    std::map<std::string, std::string> game_nodes_;  // cluster mode: another node's games
    std::map<std::uint64_t, std::string, std::greater<>> newest_;  // order -> game id
    std::uint64_t next_order_ = 0;
    std::set<std::string> changed_;  // games whose summary changed since the last game_changed
    boost::asio::steady_timer changes_timer_;
    bool changes_armed_ = false;
    Sharing sharing_;
    std::map<std::string, Mirroring> mirroring_;  // by node
    boost::asio::steady_timer page_timer_;
    boost::asio::steady_timer digest_timer_;
    bool digest_armed_ = false;
};

}  // namespace server
