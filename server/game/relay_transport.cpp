// The relay's transport (relay_transport.h): the outbox, the sending thread and the subscriber.
#include "server/game/relay_transport.h"

#include <chrono>
#include <set>

#include "server/cluster/pubsub.h"
#include "server/cluster/redis_client.h"
#include "server/limits.h"
#include "server/log.h"

namespace server {

using cluster::RelayKind;
using cluster::RelayRecord;

RelayTransport::RelayTransport(Events& events, std::string node_id, std::string key_prefix)
    : events_(events),
      node_id_(std::move(node_id)),
      key_prefix_(std::move(key_prefix)),
      lobby_channel_(key_prefix_ + "lobby") {}

RelayTransport::~RelayTransport() {
    stop();
}

core::Status RelayTransport::start(const std::string& redis_url) {
    auto url = cluster::parse_redis_url(redis_url);
    if (!url) {
        return core::make_error(url.error());
    }
    auto probe = cluster::RedisConnection::open(*url, std::chrono::milliseconds(2000));
    if (!probe) {
        return core::make_error(probe.error());
    }
    probe_ = std::move(*probe);
    auto pubsub = cluster::PubSub::open(
        cluster::PubSub::Options{redis_url},
        [this](const std::string& channel, const std::string& message) {
            if (channel == lobby_channel_) {
                events_.on_lobby_message(message);
            } else {
                events_.on_message(message);
            }
        },
        [this](bool up) { events_.on_connection(up); });
    if (!pubsub) {
        return core::make_error(pubsub.error());
    }
    pubsub_ = std::move(*pubsub);
    for (const auto& channel : {cluster::node_channel(key_prefix_, node_id_), lobby_channel_}) {
        if (auto subscribed = pubsub_->subscribe(channel); !subscribed) {
            return core::make_error(subscribed.error());
        }
    }
    sender_ = std::thread([this] { send_loop(); });
    return core::ok_status();
}

void RelayTransport::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (sender_.joinable()) {
        sender_.join();
    }
    pubsub_.reset();  // no message arrives after this
}

void RelayTransport::send(Outgoing outgoing) {
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
        update_gauge();
    }
    if (!unheard.empty()) {
        drop(std::move(unheard));
        return;
    }
    wake_.notify_one();
}

void RelayTransport::drop(std::vector<Outgoing> records) {
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
    events_.not_heard(node, fed);
}

core::Expected<std::vector<std::int64_t>> RelayTransport::listeners(
    const std::vector<std::string>& nodes) {
    std::vector<std::string> argv{"PUBSUB", "NUMSUB"};
    for (const auto& node : nodes) {
        argv.push_back(cluster::node_channel(key_prefix_, node));
    }
    auto reply = probe_->command(argv);
    if (!reply) {
        return core::make_error(reply.error());
    }
    if (reply->elements.size() != 2 * nodes.size()) {
        return core::make_error("an unexpected reply");
    }
    std::vector<std::int64_t> counts;
    counts.reserve(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        counts.push_back(reply->elements[2 * i + 1].integer);
    }
    return counts;
}

RelayTransport::Stats RelayTransport::stats() const {
    Stats stats;
    stats.queued = queued_now_.load(std::memory_order_relaxed);
    stats.dropped_outbox_full = dropped_outbox_full_.load(std::memory_order_relaxed);
    stats.dropped_publish_failed = dropped_publish_failed_.load(std::memory_order_relaxed);
    stats.dropped_nobody_listening = dropped_nobody_listening_.load(std::memory_order_relaxed);
    stats.pubsub_reconnects = pubsub_ ? pubsub_->reconnect_count() : 0;
    return stats;
}

void RelayTransport::send_loop() {
    auto next_sweep = std::chrono::steady_clock::now() + relay_sweep_interval;
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
            update_gauge();
        }
        if (!batch.empty()) {
            flush(std::move(batch));
            std::lock_guard lock(mutex_);
            sending_ = 0;
            update_gauge();
        }
        if (std::chrono::steady_clock::now() >= next_sweep) {
            events_.sweep();
            next_sweep = std::chrono::steady_clock::now() + relay_sweep_interval;
        }
    }
}

void RelayTransport::flush(std::deque<Outgoing> batch) {
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
        const auto serials = events_.before_publish(node, items);
        auto heard = pubsub_->publish(cluster::node_channel(key_prefix_, node),
                                      cluster::encode_relay(records));
        if (!heard) {
            component_logger("relay")->warn("cannot relay to node {}: {}", node, heard.error());
        }
        events_.after_publish(node, serials, heard && *heard > 0);
        if (!heard || *heard == 0) {
            (heard ? dropped_nobody_listening_ : dropped_publish_failed_)
                .fetch_add(items.size(), std::memory_order_relaxed);
            for (const auto* item : items) {
                if (item->unheard) {
                    item->unheard();
                }
            }
            if (heard) {
                events_.not_heard(node, {});
            }
        }
    }
}

}  // namespace server
