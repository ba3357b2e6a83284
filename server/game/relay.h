#pragma once
// Cluster mode (issue 27): the clients of games another node owns. A node holding a client (the
// origin) relays the client's requests for such a game to the owner over Redis pub/sub; on the
// owner a RemoteClient stands for the client in the room (an ordinary watcher and requester), and
// what the room sends it travels back to the origin, which hands it to the client. One thread
// sends, in the order things were handed to it; one thread (PubSub's) receives, in Redis's order;
// so the room's order and the request ids reach the client unchanged. docs/architecture.md, "The
// relay".
//
// Relay is what the rest of the server sees; it composes three parts, each owning its state, and
// routes what comes in between them: the transport (relay_transport.h: the outbox, the sending
// thread, the subscriber), the origin's side (relay_origin.h: this node's clients relaying, the
// games they watch elsewhere, the requests awaiting a word) and the owner's remote clients
// (relay_remote_clients.h). The lobby's records to and from the other nodes it forwards itself.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/expected.h"
#include "protocol/requests.h"
#include "server/game/client.h"
#include "server/game/relay_origin.h"
#include "server/game/relay_remote_clients.h"
#include "server/game/relay_transport.h"

namespace server {

class ServerState;

class Relay final : private RelayTransport::Events {
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

    const std::string& node_id() const { return transport_.node_id(); }

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
    Relay(ServerState& state, std::string node_id, std::string key_prefix);

    // RelayTransport::Events: what comes in is routed to the part that owns what it is about.
    // A record from another node: to its origin's side (frame, watching, close) or to the
    // remote clients (request, looked_away, lag, gone, present).
    void on_message(const std::string& message) override;
    // A lobby message of another node's: noted (whose), and handed to the lobby.
    void on_lobby_message(const std::string& message) override;
    void on_connection(bool up) override;
    RelayTransport::Serials before_publish(
        const std::string& node, const std::vector<RelayTransport::Outgoing*>& items) override;
    void after_publish(const std::string& node, RelayTransport::Serials serials,
                       bool heard) override;
    // This node's watchers of `node`'s games are told to reconnect (owner_lost), and `node`'s
    // clients whose frames from here were dropped are closed (1013), so that they reconnect and
    // catch up.
    void not_heard(const std::string& node, const std::set<std::uint64_t>& fed) override;
    // Every relay_sweep_interval: did an owner leave a request unanswered, or lose the lease of a
    // game watched from here (the origin's sweeps)? Then one PUBSUB NUMSUB: do the owners this
    // node relays to, the origins of its remote clients and the nodes its lobby shows still
    // listen?
    void sweep() override;
    // One sweep's finding for a node the lobby shows: after relay_silent_sweeps_before_gone in a
    // row without a listener, its seeks and games leave the lobby.
    void lobby_node_swept(const std::string& node, bool listening);

    // Lock order: each part's mutex (the transport's outbox, the origin's tables, the remote
    // clients' table and each RemoteClient's, lobby_mutex_ here) guards that part's state only and
    // is never held while calling out (another part, a client, a room, the lobby), so no two are
    // ever held at once.
    ServerState& state_;
    RelayTransport transport_;
    RelayOrigin origin_;
    RelayRemoteClients remote_clients_;

    std::mutex lobby_mutex_;  // guards what follows
    // The other nodes whose seeks and games this node's lobby shows, with the sweeps that found
    // nobody on their channel in a row.
    std::map<std::string, int> lobby_nodes_;
};

}  // namespace server
