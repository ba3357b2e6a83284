// The relay (relay.h): its three parts put together, what comes in routed between them, the sweep
// that asks Redis who still listens, and the lobby's records to and from the other nodes.
#include "server/game/relay.h"

#include <set>

#include <nlohmann/json.hpp>

#include "server/game/account_news.h"
#include "server/game/lobby.h"
#include "server/game/server_state.h"
#include "server/log.h"

namespace server {

using cluster::RelayKind;
using cluster::RelayRecord;
using Outgoing = RelayTransport::Outgoing;

core::Expected<std::unique_ptr<Relay>> Relay::open(ServerState& state, const std::string& redis_url,
                                                   const std::string& node_id,
                                                   const std::string& key_prefix) {
    std::unique_ptr<Relay> relay(new Relay(state, node_id, key_prefix));
    if (auto started = relay->transport_.start(redis_url); !started) {
        return core::make_error(started.error());
    }
    // The other nodes' lobbies tell this one what they hold.
    relay->publish_lobby({{"k", "sync"}});
    return relay;
}

Relay::Relay(ServerState& state, std::string node_id, std::string key_prefix)
    : state_(state),
      transport_(*this, std::move(node_id), std::move(key_prefix)),
      origin_(state, transport_),
      remote_clients_(state, transport_) {}

Relay::~Relay() {
    remote_clients_.stop();
    transport_.stop();  // no message arrives after this; the remote clients go with their part
}

void Relay::forward(const std::string& owner, const std::shared_ptr<Client>& client,
                    const Actor& actor, const protocol::Request& request, const std::string& text) {
    origin_.forward(owner, client, actor, request, text);
}

void Relay::looked_away(const std::string& owner, std::uint64_t client_id,
                        const std::string& game_id) {
    origin_.looked_away(owner, client_id, game_id);
}

void Relay::lag(const std::string& owner, std::uint64_t client_id, const std::string& game_id,
                int lag_ms) {
    origin_.lag(owner, client_id, game_id, lag_ms);
}

void Relay::client_gone(std::uint64_t client_id) {
    origin_.client_gone(client_id);
}

void Relay::present(const std::string& holder, const std::shared_ptr<Client>& client,
                    const Actor& actor) {
    origin_.present(holder, client, actor);
}

void Relay::publish_lobby(nlohmann::json record) {
    record["node"] = node_id();
    Outgoing out;
    out.lobby_record = record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    transport_.send(std::move(out));
}

std::size_t Relay::remote_client_count() {
    return remote_clients_.count();
}

Relay::Stats Relay::stats() const {
    const auto sent = transport_.stats();
    Stats stats;
    stats.queued = sent.queued;
    stats.remote_clients = remote_clients_.count_now();
    stats.relayed_clients = origin_.relayed_count();
    stats.dropped_outbox_full = sent.dropped_outbox_full;
    stats.dropped_publish_failed = sent.dropped_publish_failed;
    stats.dropped_nobody_listening = sent.dropped_nobody_listening;
    stats.pubsub_reconnects = sent.pubsub_reconnects;
    return stats;
}

void Relay::on_message(const std::string& message) {
    auto records = cluster::decode_relay(message);
    if (!records) {
        component_logger("relay")->error("a relay message dropped: {}", records.error());
        return;
    }
    if (!records->empty()) {
        origin_.heard_from(records->front().from);  // one message comes from one node
    }
    for (const auto& record : *records) {
        switch (record.kind) {
            case RelayKind::request:
                remote_clients_.handle_request(record);
                break;
            case RelayKind::looked_away:
            case RelayKind::lag:
            case RelayKind::gone:
                remote_clients_.handle_note(record);
                break;
            case RelayKind::present:
                remote_clients_.handle_present(record);
                break;
            case RelayKind::frame:
            case RelayKind::watching:
            case RelayKind::close:
                origin_.deliver(record);
                break;
        }
    }
}

void Relay::on_lobby_message(const std::string& message) {
    auto records = nlohmann::json::parse(message, nullptr, false);
    if (records.is_discarded() || !records.is_array()) {
        component_logger("relay")->error("a lobby message dropped: not a JSON array");
        return;
    }
    nlohmann::json theirs = nlohmann::json::array();
    for (auto& record : records) {
        const auto node = record.is_object() ? record.value("node", "") : std::string();
        if (node.empty() || node == node_id()) {
            continue;  // this node's own (Redis sends a publisher its own messages too)
        }
        {
            std::lock_guard lock(lobby_mutex_);
            lobby_nodes_.try_emplace(node, 0);
        }
        if (!state_.account_news().heard(record)) {
            theirs.push_back(std::move(record));
        }
    }
    if (!theirs.empty()) {
        state_.lobby().post_remote(std::move(theirs));
    }
}

void Relay::on_connection(bool up) {
    if (!up) {
        return;
    }
    // Frames may have been lost while the connection was down: whoever watches a game elsewhere
    // catches up from the version it saw (the client does so on server_restarting).
    origin_.all_owners_lost();
    publish_lobby({{"k", "sync"}});
}

RelayTransport::Serials Relay::before_publish(const std::string& node,
                                              const std::vector<Outgoing*>& items) {
    return origin_.await_word(node, items);
}

void Relay::after_publish(const std::string& node, RelayTransport::Serials serials, bool heard) {
    origin_.published(node, serials, heard);
}

void Relay::not_heard(const std::string& node, const std::set<std::uint64_t>& fed) {
    origin_.owner_lost(node);  // what this node's clients watch there: they resynchronise
    for (const auto client : fed) {
        // The client missed frames of a room here: closed, it reconnects and catches up.
        RelayRecord close;
        close.kind = RelayKind::close;
        close.from = node_id();
        close.client = client;
        close.code = 1013;  // try again later
        transport_.send(Outgoing::to(node, std::move(close)));
    }
}

void Relay::sweep() {
    origin_.sweep_silent_owners();
    origin_.sweep_leases();
    const auto owners = origin_.watched_owners();
    const auto origins = remote_clients_.origins();
    std::vector<std::string> lobby_nodes;
    {
        std::lock_guard lock(lobby_mutex_);
        for (const auto& [node, silent] : lobby_nodes_) {
            lobby_nodes.push_back(node);
        }
    }
    if (owners.empty() && origins.empty() && lobby_nodes.empty()) {
        return;
    }
    std::vector<std::string> nodes = owners;
    nodes.insert(nodes.end(), origins.begin(), origins.end());
    nodes.insert(nodes.end(), lobby_nodes.begin(), lobby_nodes.end());
    auto listeners = transport_.listeners(nodes);
    if (!listeners) {
        component_logger("relay")->warn("cannot ask Redis who listens: {}", listeners.error());
        return;
    }
    const auto& counts = *listeners;
    for (std::size_t i = 0; i < owners.size(); ++i) {
        if (counts[i] == 0) {
            origin_.owner_lost(owners[i]);
        }
    }
    for (std::size_t i = 0; i < origins.size(); ++i) {
        remote_clients_.origin_swept(origins[i], counts[owners.size() + i] != 0);
    }
    const auto lobby_first = owners.size() + origins.size();
    for (std::size_t i = 0; i < lobby_nodes.size(); ++i) {
        lobby_node_swept(lobby_nodes[i], counts[lobby_first + i] != 0);
    }
}

void Relay::lobby_node_swept(const std::string& node, bool listening) {
    {
        std::lock_guard lock(lobby_mutex_);
        auto it = lobby_nodes_.find(node);
        if (it == lobby_nodes_.end()) {
            return;
        }
        it->second = listening ? 0 : it->second + 1;
        if (it->second < relay_silent_sweeps_before_gone) {
            return;
        }
        lobby_nodes_.erase(it);
    }
    component_logger("relay")->warn("node {} is gone: its seeks and games leave the lobby", node);
    state_.lobby().post_node_gone(node);
}

}  // namespace server
