#pragma once
// Cluster mode (issue 27): the clients of games another node owns. A node holding a client (the
// origin) relays the client's requests for such a game to the owner over Redis pub/sub; on the
// owner a RemoteClient stands for the client in the room (an ordinary watcher and requester), and
// what the room sends it travels back to the origin, which hands it to the client. One thread
// sends, in the order things were handed to it; one thread (PubSub's) receives, in Redis's order;
// so the room's order and the request ids reach the client unchanged. docs/architecture.md, "The
// relay".
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/expected.h"
#include "protocol/requests.h"
#include "server/cluster/relay_messages.h"
#include "server/game/client.h"

namespace server {

namespace cluster {
class PubSub;
class RedisConnection;
}  // namespace cluster

class ServerState;
struct GameLookup;

// How long a request relayed to an owner waits for a word from it (issue 42, finding 14): when
// nothing at all came from the owner's node since the request went out, the request is answered
// server_restarting and the owner is treated as gone for this node's watchers (owner_lost), so
// that the client asks again and its request is looked up again (another node may own the game by
// then). A frozen node still subscribes, so nobody-listening cannot tell.
constexpr std::chrono::milliseconds relay_request_timeout{5000};

class Relay {
public:
    // Listens on this node's channel (node_channel(key_prefix, node_id)) of the Redis at
    // `redis_url`; an error says why it cannot.
    static core::Expected<std::unique_ptr<Relay>> open(ServerState& state,
                                                       const std::string& redis_url,
                                                       const std::string& node_id,
                                                       const std::string& key_prefix);
    Relay(const Relay&) = delete;
    Relay& operator=(const Relay&) = delete;
    // Stops both threads; the remote clients leave their rooms.
    ~Relay();

    // The origin's side, callable from any thread (a session's strand).
    // Relays `client`'s request (`text`, parsed as `request`) for a game `owner` owns. If no node
    // listens on the owner's channel (it died), or the owner's node sends nothing at all for
    // relay_request_timeout after it (it froze), the client gets server_restarting for the request
    // (it sends it again once the game has a new owner).
    void forward(const std::string& owner, const std::shared_ptr<Client>& client,
                 const Actor& actor, const protocol::Request& request, const std::string& text);
    void looked_away(const std::string& owner, std::uint64_t client_id, const std::string& game_id);
    void lag(const std::string& owner, std::uint64_t client_id, const std::string& game_id,
             int lag_ms);
    // The client closed (or now speaks for another player): each owner it spoke to forgets it.
    void client_gone(std::uint64_t client_id);
    // `client` speaks for `actor`'s player, who has seeks on node `holder`: that node's lobby
    // counts it as the player's connection (their seeks' grace ends, a pairing reaches it here)
    // until the client closes.
    void present(const std::string& holder, const std::shared_ptr<Client>& client,
                 const Actor& actor);

    // A record for every other node on the lobby channel (the lobby's seeks and games,
    // game/lobby_cluster.cpp; account news, ServerState::account_news): `record`, a JSON object,
    // is stamped with this node's id; the records of one round go out as one message, a JSON
    // array.
    void publish_lobby(nlohmann::json record);

    const std::string& node_id() const { return node_id_; }

    // Remote clients in this node's rooms, and local clients watching a room elsewhere (metrics,
    // tests' logs).
    std::size_t remote_client_count();

    // What the relay holds and lost, for GET /metrics: read from atomics, so asking waits for
    // neither Redis nor the relay's threads.
    struct Stats {
        std::size_t queued = 0;           // records waiting to be published (or being published)
        std::size_t remote_clients = 0;   // other nodes' clients in this node's rooms (owner)
        std::size_t relayed_clients = 0;  // this node's clients relaying to an owner (origin)
        // Records never published: the node's outbox was full (relay_outbox_per_node), Redis
        // refused the PUBLISH, or nobody listened on the node's channel.
        std::uint64_t dropped_outbox_full = 0;
        std::uint64_t dropped_publish_failed = 0;
        std::uint64_t dropped_nobody_listening = 0;
        std::uint64_t pubsub_reconnects = 0;  // the subscriber connection lost and restored
    };
    Stats stats() const;

private:
    class RemoteClient;
    friend class RemoteClient;
    struct Outgoing {
        std::string node;  // whose channel; empty: the lobby channel (lobby_record)
        cluster::RelayRecord record;
        // Runs on the sending thread when nobody listened on the channel.
        std::function<void()> unheard;
        std::string lobby_record;

        static Outgoing to(std::string node, cluster::RelayRecord record,
                           std::function<void()> unheard = {}) {
            Outgoing out;
            out.node = std::move(node);
            out.record = std::move(record);
            out.unheard = std::move(unheard);
            return out;
        }
    };
    // A request relayed to an owner and not yet followed by any word from that node: how to
    // answer it (its Outgoing's `unheard`) should the owner stay silent for
    // relay_request_timeout after it was published (`published`, at `sent`).
    struct Pending {
        std::chrono::steady_clock::time_point sent;
        std::uint64_t serial = 0;
        bool published = false;
        std::function<void()> answer;
    };
    // A local client that relays: the session, and the nodes it relayed to.
    struct Local {
        std::weak_ptr<Client> client;
        std::set<std::string> owners;
    };

    Relay(ServerState& state, std::string node_id, std::string key_prefix,
          std::unique_ptr<cluster::RedisConnection> probe);
    // Queues `outgoing` for the sending thread. A node (or the lobby channel) with
    // relay_outbox_per_node records waiting already is treated as one that did not hear them:
    // not_heard(those records and this one).
    void send(Outgoing outgoing);
    // Under mutex_: the gauges stats() reads, from the tables' sizes now.
    void update_gauges();
    // Records for one node dropped unpublished, as flush() does with a message nobody heard: each
    // request among them is answered server_restarting (its `unheard`), this node's watchers of
    // that node's games are told to reconnect (owner_lost), and that node's clients whose frames
    // from here were dropped are closed (1013), so that they reconnect and catch up.
    void not_heard(std::vector<Outgoing> records);
    // A record of `kind` in which `client` speaks for `actor` to `owner` (who is told when the
    // client closes).
    cluster::RelayRecord speaking_for(cluster::RelayKind kind, const std::string& owner,
                                      const std::shared_ptr<Client>& client, const Actor& actor);
    void send_loop();
    // Sends what is queued: one message per node, records in order.
    void flush(std::deque<Outgoing> batch);
    void on_message(const std::string& channel, const std::string& message);
    // A lobby message of another node's: noted (whose), and handed to the lobby.
    void on_lobby_message(const std::string& message);
    void on_connection(bool up);

    // relay_owner.cpp: the owner's side
    // A remote client's request, served in its turn (RemoteClient::take_turn): a game not in
    // memory is looked up on the blocking pool (RoomDirectory::lookup), never on the receiving
    // thread, and the client's later requests wait for its answer.
    void handle_request(const cluster::RelayRecord& record);
    // Serves `record` and then the client's requests that wait, until one waits for a lookup.
    void serve_requests(const std::shared_ptr<RemoteClient>& client, cluster::RelayRecord record);
    // One request: true when it is done (handed to its room, the lobby, or answered), false when
    // its lookup is on the pool (whose answer serves the next ones).
    bool serve_request(const std::shared_ptr<RemoteClient>& client,
                       const cluster::RelayRecord& record);
    // Where a lookup's outcome sends the request of `actor` (a client of node `origin`).
    void route_lookup(const std::shared_ptr<RemoteClient>& client, core::Expected<GameLookup> game,
                      const Actor& actor, protocol::Request request, const std::string& origin);
    // A remote client looked away, measured its lag, or closed.
    void handle_note(const cluster::RelayRecord& record);
    // A remote client speaks for a player with seeks here: the lobby counts it as connected.
    void handle_present(const cluster::RelayRecord& record);
    std::shared_ptr<RemoteClient> remote(const std::string& origin, std::uint64_t client,
                                         bool create);
    // The remote client (or every one of `origin`) leaves the rooms it watches and is forgotten.
    void drop_remote(const std::string& origin, std::uint64_t client);
    void drop_origin(const std::string& origin);
    // relay.cpp: the origin's side
    void deliver(const cluster::RelayRecord& record);
    // relay_liveness.cpp: who still listens, owns the games and answers
    // Every client of this node watching a room `owner` owns is told server_restarting for that
    // game (and stops relaying to it), and the requests published to it that wait for a word from
    // it are answered server_restarting: the owner died or froze, or messages may have been lost.
    void owner_lost(const std::string& owner);
    // The same for the watches of `games` only (the owner holds their leases no more), whose
    // requests the owner still answers if it lives.
    void games_lost(const std::string& owner, const std::set<std::string>& games);
    // Something came from `node`: the requests published to it before now are its to answer.
    void heard_from(const std::string& node);
    // On the sending thread, before the records of `items` are published to `owner`: their
    // requests wait for a word from it. The serials of those added, [first, end).
    std::pair<std::uint64_t, std::uint64_t> await_word(const std::string& owner,
                                                       const std::vector<Outgoing*>& items);
    // After the PUBLISH: heard, those requests' time runs from now; not heard (flush answers
    // them), they wait no more.
    void published(const std::string& owner, std::pair<std::uint64_t, std::uint64_t> serials,
                   bool heard);
    // Every half second: are the owners this node relays to, and the origins of its remote
    // clients, still listening (PUBSUB NUMSUB)? Do the owners of the games watched elsewhere
    // still hold their leases (sweep_leases)? Did an owner leave a request unanswered for
    // relay_request_timeout (sweep_silent_owners)?
    void sweep();
    void sweep_leases();
    void sweep_silent_owners();

    ServerState& state_;
    const std::string node_id_;
    const std::string key_prefix_;
    const std::string lobby_channel_;  // "<prefix>lobby"
    std::unique_ptr<cluster::PubSub> pubsub_;
    std::unique_ptr<cluster::RedisConnection> probe_;  // the sweep's, on the sending thread

    std::mutex mutex_;  // guards what follows
    std::condition_variable wake_;
    std::deque<Outgoing> outbox_;
    std::map<std::string, std::size_t> outbox_counts_;  // outbox_'s records by node
    bool stopping_ = false;
    // Origin: the local clients that relay, and per owner the (client, game) its rooms push to.
    std::map<std::uint64_t, Local> locals_;
    std::map<std::string, std::set<std::pair<std::uint64_t, std::string>>> watched_elsewhere_;
    // Per owner, the requests published to it since the last word from it, oldest first; their
    // count (read without the mutex by on_message, to skip it when none waits).
    std::map<std::string, std::deque<Pending>> awaiting_word_;
    std::uint64_t next_serial_ = 0;
    std::atomic<std::size_t> awaiting_now_{0};
    // Owner: the remote clients by (origin node, client id there); per origin the sweeps that
    // found nobody listening in a row.
    std::map<std::pair<std::string, std::uint64_t>, std::shared_ptr<RemoteClient>> remotes_;
    std::map<std::string, int> silent_origins_;
    // Lobby: the other nodes whose seeks and games this node's lobby shows, with the sweeps that
    // found nobody on their channel in a row.
    std::map<std::string, int> lobby_nodes_;

    // stats(): the gauges as of their tables' last change, and the counters.
    std::size_t sending_ = 0;                 // records in the batch the sending thread publishes
    std::atomic<std::size_t> queued_now_{0};  // outbox_ and sending_
    std::atomic<std::size_t> remotes_now_{0};
    std::atomic<std::size_t> locals_now_{0};
    std::atomic<std::uint64_t> dropped_outbox_full_{0};
    std::atomic<std::uint64_t> dropped_publish_failed_{0};
    std::atomic<std::uint64_t> dropped_nobody_listening_{0};

    std::thread sender_;
};

}  // namespace server
