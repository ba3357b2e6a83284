#pragma once
// The owner's side of the relay (relay.h): the remote clients, each standing in this node's rooms
// for a client of another node (its origin), as a requester and a watcher, exactly like a local
// session. A remote client's requests are served one at a time in the order they came, a game not
// in memory looked up on the blocking pool (never on the receiving thread); what a room sends it
// goes back to the origin through the transport, in order. The remote clients of an origin that
// stopped listening leave the rooms.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/expected.h"
#include "protocol/requests.h"
#include "server/cluster/relay_messages.h"
#include "server/game/client.h"

namespace server {

class RelayTransport;
class ServerState;
struct GameLookup;

class RelayRemoteClients {
public:
    RelayRemoteClients(ServerState& state, RelayTransport& transport)
        : state_(state), transport_(transport) {}
    RelayRemoteClients(const RelayRemoteClients&) = delete;
    RelayRemoteClients& operator=(const RelayRemoteClients&) = delete;

    // The receiving thread, a record from an origin:
    // A request, served in its client's turn (RemoteClient::take_turn).
    void handle_request(const cluster::RelayRecord& record);
    // A remote client looked away, measured its lag, or closed.
    void handle_note(const cluster::RelayRecord& record);
    // A remote client speaks for a player with seeks here: the lobby counts it as connected.
    void handle_present(const cluster::RelayRecord& record);

    // The sweep's (the sending thread): the origins of the remote clients, and whether one sweep
    // found anybody on `origin`'s channel. After relay_silent_sweeps_before_gone sweeps in a row
    // that found nobody, the origin's clients leave this node's rooms and are forgotten.
    std::vector<std::string> origins();
    void origin_swept(const std::string& origin, bool listening);

    // Remote clients in this node's rooms: counted under the mutex, and as of the last change
    // (an atomic, for metrics).
    std::size_t count();
    std::size_t count_now() const { return remotes_now_.load(std::memory_order_relaxed); }
    // No remote client is made from now on (the relay stops).
    void stop();

private:
    class RemoteClient;

    // Serves `record` and then the client's requests that wait, until one waits for a lookup.
    void serve_requests(const std::shared_ptr<RemoteClient>& client, cluster::RelayRecord record);
    // One request: true when it is done (handed to its room, the lobby, or answered), false when
    // its lookup is on the pool (whose answer serves the next ones).
    bool serve_request(const std::shared_ptr<RemoteClient>& client,
                       const cluster::RelayRecord& record);
    // Where a lookup's outcome sends the request of `actor` (a client of node `origin`).
    void route_lookup(const std::shared_ptr<RemoteClient>& client, core::Expected<GameLookup> game,
                      const Actor& actor, protocol::Request request, const std::string& origin);
    std::shared_ptr<RemoteClient> remote(const std::string& origin, std::uint64_t client,
                                         bool create);
    // The remote client (or every one of `origin`) leaves the rooms it watches and is forgotten.
    void drop_remote(const std::string& origin, std::uint64_t client);
    void drop_origin(const std::string& origin);

    ServerState& state_;
    RelayTransport& transport_;

    std::mutex mutex_;  // guards what follows
    // The remote clients by (origin node, client id there); per origin the sweeps that found
    // nobody listening in a row.
    std::map<std::pair<std::string, std::uint64_t>, std::shared_ptr<RemoteClient>> remotes_;
    std::map<std::string, int> silent_origins_;
    bool stopping_ = false;
    std::atomic<std::size_t> remotes_now_{0};  // remotes_.size() as of its last change
};

}  // namespace server
