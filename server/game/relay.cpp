// The relay's threads and the origin's side (relay.h): requests out, frames back in. The sweep
// that notices an owner that died, froze, or holds the game no more: relay_liveness.cpp.
#include "server/game/relay.h"

#include <chrono>
#include <set>

#include <nlohmann/json.hpp>

#include "server/cluster/pubsub.h"
#include "server/cluster/redis_client.h"
#include "server/game/lobby.h"
#include "server/game/room.h"
#include "server/game/server_state.h"
#include "server/limits.h"
#include "server/log.h"

namespace server {

using cluster::RelayKind;
using cluster::RelayRecord;

namespace {

constexpr auto sweep_interval = std::chrono::milliseconds(500);

}  // namespace

core::Expected<std::unique_ptr<Relay>> Relay::open(ServerState& state, const std::string& redis_url,
                                                   const std::string& node_id,
                                                   const std::string& key_prefix) {
    auto url = cluster::parse_redis_url(redis_url);
    if (!url) {
        return core::make_error(url.error());
    }
    auto probe = cluster::RedisConnection::open(*url, std::chrono::milliseconds(2000));
    if (!probe) {
        return core::make_error(probe.error());
    }
    std::unique_ptr<Relay> relay(new Relay(state, node_id, key_prefix, std::move(*probe)));
    auto* self = relay.get();
    auto pubsub = cluster::PubSub::open(
        cluster::PubSub::Options{redis_url},
        [self](const std::string& channel, const std::string& message) {
            self->on_message(channel, message);
        },
        [self](bool up) { self->on_connection(up); });
    if (!pubsub) {
        return core::make_error(pubsub.error());
    }
    relay->pubsub_ = std::move(*pubsub);
    for (const auto& channel :
         {cluster::node_channel(key_prefix, node_id), relay->lobby_channel_}) {
        if (auto subscribed = relay->pubsub_->subscribe(channel); !subscribed) {
            return core::make_error(subscribed.error());
        }
    }
    relay->sender_ = std::thread([self] { self->send_loop(); });
    // The other nodes' lobbies tell this one what they hold.
    relay->publish_lobby({{"k", "sync"}});
    return relay;
}

Relay::Relay(ServerState& state, std::string node_id, std::string key_prefix,
             std::unique_ptr<cluster::RedisConnection> probe)
    : state_(state),
      node_id_(std::move(node_id)),
      key_prefix_(std::move(key_prefix)),
      lobby_channel_(key_prefix_ + "lobby"),
      probe_(std::move(probe)) {}

Relay::~Relay() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (sender_.joinable()) {
        sender_.join();
    }
    pubsub_.reset();  // no message arrives after this
    std::map<std::pair<std::string, std::uint64_t>, std::shared_ptr<RemoteClient>> remotes;
    {
        std::lock_guard lock(mutex_);
        remotes.swap(remotes_);
        update_gauges();
    }
    remotes.clear();
}

void Relay::send(Outgoing outgoing) {
    std::vector<Outgoing> unheard;  // a full node's records, and this one
    {
        std::lock_guard lock(mutex_);
        if (stopping_) {
            return;
        }
        if (auto& waiting = outbox_counts_[outgoing.node]; waiting < relay_outbox_per_node) {
            ++waiting;
            outbox_.push_back(std::move(outgoing));
        } else {
            std::deque<Outgoing> others;
            for (auto& queued : outbox_) {
                if (queued.node == outgoing.node) {
                    unheard.push_back(std::move(queued));
                } else {
                    others.push_back(std::move(queued));
                }
            }
            outbox_.swap(others);
            outbox_counts_.erase(outgoing.node);
            unheard.push_back(std::move(outgoing));
            dropped_outbox_full_.fetch_add(unheard.size(), std::memory_order_relaxed);
        }
        update_gauges();
    }
    if (!unheard.empty()) {
        not_heard(std::move(unheard));
        return;
    }
    wake_.notify_one();
}

void Relay::not_heard(std::vector<Outgoing> records) {
    const auto node = records.front().node;
    component_logger("relay")->warn(
        "{} records wait to be published to {}: they are dropped as if nobody heard them",
        records.size(), node.empty() ? std::string("the lobby channel") : "node " + node);
    std::set<std::uint64_t> fed;  // the node's clients whose frames from here are lost
    for (const auto& out : records) {
        if (out.unheard) {
            out.unheard();
        }
        const auto kind = out.record.kind;
        if (!node.empty() &&
            (kind == RelayKind::frame || kind == RelayKind::watching || kind == RelayKind::close)) {
            fed.insert(out.record.client);
        }
    }
    if (node.empty()) {
        return;  // the lobby's records: lost, as when the lobby channel cannot be published to
    }
    owner_lost(node);  // what this node's clients watch there: they resynchronise
    for (const auto client : fed) {
        // The client missed frames of a room here: closed, it reconnects and catches up.
        RelayRecord close;
        close.kind = RelayKind::close;
        close.from = node_id_;
        close.client = client;
        close.code = 1013;  // try again later
        send(Outgoing::to(node, std::move(close)));
    }
}

RelayRecord Relay::speaking_for(RelayKind kind, const std::string& owner,
                                const std::shared_ptr<Client>& client, const Actor& actor) {
    {
        std::lock_guard lock(mutex_);
        auto& local = locals_[actor.client_id];
        local.client = client;
        local.owners.insert(owner);
        update_gauges();
    }
    RelayRecord record;
    record.kind = kind;
    record.from = node_id_;
    record.client = actor.client_id;
    record.player_id = actor.player_id;
    record.name = actor.name;
    record.account = actor.account;
    record.lag_ms = actor.lag_ms;
    record.ip = actor.ip;
    return record;
}

void Relay::forward(const std::string& owner, const std::shared_ptr<Client>& client,
                    const Actor& actor, const protocol::Request& request, const std::string& text) {
    auto record = speaking_for(RelayKind::request, owner, client, actor);
    record.game_id = request.game_id;
    record.text = text;
    std::weak_ptr<Client> weak = client;
    // Answered once, by whichever comes first: nobody heard it, or the owner stayed silent.
    auto answered = std::make_shared<std::atomic<bool>>(false);
    send(Outgoing::to(owner, std::move(record),
                      [weak, id = request.id, game_id = request.game_id, owner, answered] {
                          if (answered->exchange(true)) {
                              return;
                          }
                          if (auto c = weak.lock()) {
                              c->watching_elsewhere(game_id, owner, false);
                              c->send(error_frame(protocol::ErrorCode::server_restarting,
                                                  lost_room_text, id, game_id));
                          }
                      }));
}

void Relay::looked_away(const std::string& owner, std::uint64_t client_id,
                        const std::string& game_id) {
    RelayRecord record;
    record.kind = RelayKind::looked_away;
    record.from = node_id_;
    record.client = client_id;
    record.game_id = game_id;
    send(Outgoing::to(owner, std::move(record)));
}

void Relay::lag(const std::string& owner, std::uint64_t client_id, const std::string& game_id,
                int lag_ms) {
    RelayRecord record;
    record.kind = RelayKind::lag;
    record.from = node_id_;
    record.client = client_id;
    record.game_id = game_id;
    record.lag_ms = lag_ms;
    send(Outgoing::to(owner, std::move(record)));
}

void Relay::client_gone(std::uint64_t client_id) {
    std::set<std::string> owners;
    {
        std::lock_guard lock(mutex_);
        if (auto it = locals_.find(client_id); it != locals_.end()) {
            owners = std::move(it->second.owners);
            locals_.erase(it);
        }
        for (auto& [owner, watches] : watched_elsewhere_) {
            std::erase_if(watches, [&](const auto& w) { return w.first == client_id; });
        }
        update_gauges();
    }
    for (const auto& owner : owners) {
        RelayRecord record;
        record.kind = RelayKind::gone;
        record.from = node_id_;
        record.client = client_id;
        send(Outgoing::to(owner, std::move(record)));
    }
}

void Relay::present(const std::string& holder, const std::shared_ptr<Client>& client,
                    const Actor& actor) {
    send(Outgoing::to(holder, speaking_for(RelayKind::present, holder, client, actor)));
}

void Relay::publish_lobby(nlohmann::json record) {
    record["node"] = node_id_;
    Outgoing out;
    out.lobby_record = record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    send(std::move(out));
}

std::size_t Relay::remote_client_count() {
    std::lock_guard lock(mutex_);
    return remotes_.size();
}

void Relay::update_gauges() {
    queued_now_.store(outbox_.size() + sending_, std::memory_order_relaxed);
    remotes_now_.store(remotes_.size(), std::memory_order_relaxed);
    locals_now_.store(locals_.size(), std::memory_order_relaxed);
}

Relay::Stats Relay::stats() const {
    Stats stats;
    stats.queued = queued_now_.load(std::memory_order_relaxed);
    stats.remote_clients = remotes_now_.load(std::memory_order_relaxed);
    stats.relayed_clients = locals_now_.load(std::memory_order_relaxed);
    stats.dropped_outbox_full = dropped_outbox_full_.load(std::memory_order_relaxed);
    stats.dropped_publish_failed = dropped_publish_failed_.load(std::memory_order_relaxed);
    stats.dropped_nobody_listening = dropped_nobody_listening_.load(std::memory_order_relaxed);
    stats.pubsub_reconnects = pubsub_ ? pubsub_->reconnect_count() : 0;
    return stats;
}

void Relay::send_loop() {
    auto next_sweep = std::chrono::steady_clock::now() + sweep_interval;
    for (;;) {
        std::deque<Outgoing> batch;
        {
            std::unique_lock lock(mutex_);
            wake_.wait_until(lock, next_sweep, [&] { return stopping_ || !outbox_.empty(); });
            if (stopping_) {
                return;
            }
            batch.swap(outbox_);
            outbox_counts_.clear();
            sending_ = batch.size();
            update_gauges();
        }
        if (!batch.empty()) {
            flush(std::move(batch));
            std::lock_guard lock(mutex_);
            sending_ = 0;
            update_gauges();
        }
        if (std::chrono::steady_clock::now() >= next_sweep) {
            sweep();
            next_sweep = std::chrono::steady_clock::now() + sweep_interval;
        }
    }
}

void Relay::flush(std::deque<Outgoing> batch) {
    // One message per node, in the order of each node's first record: records for one node keep
    // their order, which is all that matters (each client's frames come from one node).
    std::vector<std::string> order;
    std::map<std::string, std::vector<Outgoing*>> by_node;
    for (auto& outgoing : batch) {
        auto [it, fresh] = by_node.try_emplace(outgoing.node);
        if (fresh) {
            order.push_back(outgoing.node);
        }
        it->second.push_back(&outgoing);
    }
    for (const auto& node : order) {
        const auto& items = by_node[node];
        if (node.empty()) {
            std::string message = "[";
            for (const auto* item : items) {
                message += message.size() > 1 ? "," : "";
                message += item->lobby_record;
            }
            message += "]";
            if (auto sent = pubsub_->publish(lobby_channel_, message); !sent) {
                dropped_publish_failed_.fetch_add(items.size(), std::memory_order_relaxed);
                component_logger("relay")->warn("cannot publish to the lobby: {}", sent.error());
            }
            continue;
        }
        std::vector<RelayRecord> records;
        records.reserve(items.size());
        for (const auto* item : items) {
            records.push_back(item->record);
        }
        // Waiting before the PUBLISH: an answer that comes back before it returns ends the wait.
        const auto serials = await_word(node, items);
        auto heard = pubsub_->publish(cluster::node_channel(key_prefix_, node),
                                      cluster::encode_relay(records));
        if (!heard) {
            component_logger("relay")->warn("cannot relay to node {}: {}", node, heard.error());
        }
        published(node, serials, heard && *heard > 0);
        if (!heard || *heard == 0) {
            (heard ? dropped_nobody_listening_ : dropped_publish_failed_)
                .fetch_add(items.size(), std::memory_order_relaxed);
            for (const auto* item : items) {
                if (item->unheard) {
                    item->unheard();
                }
            }
            if (heard) {
                owner_lost(node);
            }
        }
    }
}

void Relay::on_message(const std::string& channel, const std::string& message) {
    if (channel == lobby_channel_) {
        on_lobby_message(message);
        return;
    }
    auto records = cluster::decode_relay(message);
    if (!records) {
        component_logger("relay")->error("a relay message dropped: {}", records.error());
        return;
    }
    if (!records->empty()) {
        heard_from(records->front().from);  // one message comes from one node
    }
    for (const auto& record : *records) {
        switch (record.kind) {
            case RelayKind::request:
                handle_request(record);
                break;
            case RelayKind::looked_away:
            case RelayKind::lag:
            case RelayKind::gone:
                handle_note(record);
                break;
            case RelayKind::present:
                handle_present(record);
                break;
            case RelayKind::frame:
            case RelayKind::watching:
            case RelayKind::close:
                deliver(record);
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
        if (node.empty() || node == node_id_) {
            continue;  // this node's own (Redis sends a publisher its own messages too)
        }
        {
            std::lock_guard lock(mutex_);
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

void Relay::deliver(const RelayRecord& record) {
    std::shared_ptr<Client> client;
    {
        std::lock_guard lock(mutex_);
        if (auto it = locals_.find(record.client); it != locals_.end()) {
            client = it->second.client.lock();
        }
        if (record.kind == RelayKind::watching) {
            auto& watches = watched_elsewhere_[record.from];
            if (record.on && client) {
                watches.emplace(record.client, record.game_id);
            } else {
                watches.erase({record.client, record.game_id});
            }
        }
    }
    if (!client) {
        return;
    }
    switch (record.kind) {
        case RelayKind::frame:
            client->send(make_frame(record.text));
            break;
        case RelayKind::watching:
            client->watching_elsewhere(record.game_id, record.from, record.on);
            break;
        case RelayKind::close:
            client->close_after_queued(static_cast<std::uint16_t>(record.code));
            break;
        default:
            break;
    }
}

}  // namespace server
