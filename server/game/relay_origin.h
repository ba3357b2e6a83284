#pragma once
// The origin's side of the relay (relay.h): this node's clients that speak to rooms other nodes
// own. It sends their requests and notes through the transport, hands what the owners send back
// to the sessions by client id, remembers which games each owner pushes to which client, and
// answers for an owner that died, froze or holds a game no more (relay_origin_liveness.cpp): the
// client is told server_restarting, so that it asks again and is looked up again.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "protocol/requests.h"
#include "server/cluster/relay_messages.h"
#include "server/game/client.h"
#include "server/game/relay_transport.h"

namespace server {

class ServerState;

// How long a request relayed to an owner waits for a word from it (issue 42, finding 14): when
// nothing at all came from the owner's node since the request went out, the request is answered
// server_restarting and the owner is treated as gone for this node's watchers (owner_lost), so
// that the client asks again and its request is looked up again (another node may own the game by
// then). A frozen node still subscribes, so nobody-listening cannot tell.
constexpr std::chrono::milliseconds relay_request_timeout{5000};

class RelayOrigin {
public:
    RelayOrigin(ServerState& state, RelayTransport& transport)
        : state_(state), transport_(transport) {}
    RelayOrigin(const RelayOrigin&) = delete;
    RelayOrigin& operator=(const RelayOrigin&) = delete;

    // Any thread (a session's strand): Relay's origin side, as relay.h says.
    void forward(const std::string& owner, const std::shared_ptr<Client>& client,
                 const Actor& actor, const protocol::Request& request, const std::string& text);
    void looked_away(const std::string& owner, std::uint64_t client_id, const std::string& game_id);
    void lag(const std::string& owner, std::uint64_t client_id, const std::string& game_id,
             int lag_ms);
    void client_gone(std::uint64_t client_id);
    void present(const std::string& holder, const std::shared_ptr<Client>& client,
                 const Actor& actor);

    // The receiving thread: a frame, watching or close record from an owner, for its client.
    void deliver(const cluster::RelayRecord& record);

    // relay_origin_liveness.cpp
    // Every client of this node watching a room `owner` owns is told server_restarting for that
    // game (and stops relaying to it), and the requests published to it that wait for a word from
    // it are answered server_restarting: the owner died or froze, or messages may have been lost.
    void owner_lost(const std::string& owner);
    // owner_lost for every owner whose games are watched from here (the subscriber reconnected).
    void all_owners_lost();
    // Something came from `node`: the requests published to it before now are its to answer.
    void heard_from(const std::string& node);
    // The sending thread, before the records of `items` are published to `owner`: their requests
    // wait for a word from it. The serials of those added.
    RelayTransport::Serials await_word(const std::string& owner,
                                       const std::vector<RelayTransport::Outgoing*>& items);
    // After the PUBLISH: heard, those requests' time runs from now; not heard (the transport
    // answers them), they wait no more.
    void published(const std::string& owner, RelayTransport::Serials serials, bool heard);
    // The sweep's (the sending thread): did an owner leave a request unanswered for
    // relay_request_timeout? Do the owners of the games watched elsewhere still hold their leases?
    void sweep_silent_owners();
    void sweep_leases();
    // The owners of games watched from here, for the sweep to ask whether they still listen.
    std::vector<std::string> watched_owners();

    // This node's clients relaying to an owner (metrics), from an atomic.
    std::size_t relayed_count() const { return locals_now_.load(std::memory_order_relaxed); }

private:
    // A request relayed to an owner and not yet followed by any word from that node: how to
    // answer it (its Outgoing's `unheard`) should the owner stay silent for
    // relay_request_timeout after it was published (`published`, at `sent`).
    struct Pending {
        std::chrono::steady_clock::time_point sent;
        std::uint64_t serial = 0;
        bool published = false;
        std::function<void()> answer;
        std::uint64_t client = 0;
        std::string request_id;  // Outgoing::request_id
    };
    // A local client that relays: the session, the nodes it relayed to, and per node the ids of
    // its requests answered server_restarting because that node stayed silent (owner_lost): a
    // reply of that node's with one of those ids comes from an owner that woke, and is dropped,
    // so that no request is answered twice. At most answered_kept ids a node.
    struct Local {
        std::weak_ptr<Client> client;
        std::set<std::string> owners;
        std::map<std::string, std::set<std::string>> answered;
    };
    static constexpr std::size_t answered_kept = 64;
    // Under mutex_: whether `frame` (from `owner`, for `local`) answers a request already answered
    // server_restarting; if so that id is forgotten (a reply comes once).
    static bool answered_before(Local& local, const std::string& owner, const std::string& frame);

    // A record of `kind` in which `client` speaks for `actor` to `owner` (who is told when the
    // client closes).
    cluster::RelayRecord speaking_for(cluster::RelayKind kind, const std::string& owner,
                                      const std::shared_ptr<Client>& client, const Actor& actor);
    // The same as owner_lost for the watches of `games` only (the owner holds their leases no
    // more), whose requests the owner still answers if it lives.
    void games_lost(const std::string& owner, const std::set<std::string>& games);

    ServerState& state_;
    RelayTransport& transport_;

    std::mutex mutex_;  // guards what follows
    // The local clients that relay, and per owner the (client, game) its rooms push to.
    std::map<std::uint64_t, Local> locals_;
    std::map<std::string, std::set<std::pair<std::uint64_t, std::string>>> watched_elsewhere_;
    // Per owner, the requests published to it since the last word from it, oldest first; their
    // count (read without the mutex by heard_from, to skip it when none waits).
    std::map<std::string, std::deque<Pending>> awaiting_word_;
    std::uint64_t next_serial_ = 0;
    std::atomic<std::size_t> awaiting_now_{0};
    std::atomic<std::size_t> locals_now_{0};  // locals_.size() as of its last change
};

}  // namespace server
