#pragma once
// The relay's transport (relay.h): what goes out to the other nodes and comes in from them. One
// thread sends, in the order things were handed to it (a round batches what is queued into one
// PUBLISH per node); PubSub's thread receives, in Redis's order, and hands each message to the
// Events. The transport holds the outbox, its counters and the probe connection the sweep asks
// Redis with; it knows nothing of clients, rooms or the lobby.
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

#include "core/expected.h"
#include "server/cluster/relay_messages.h"

namespace server {

namespace cluster {
class PubSub;
class RedisConnection;
}  // namespace cluster

// How often the sending thread sweeps (RelayTransport::Events::sweep), and how many sweeps in a
// row must find nobody on a node's channel before that node is taken for gone: a node whose
// subscriber reconnects is not mistaken for a dead one.
constexpr std::chrono::milliseconds relay_sweep_interval{500};
constexpr int relay_silent_sweeps_before_gone = 4;

class RelayTransport {
public:
    // One record to publish: to a node's channel, or (node empty) a lobby record.
    struct Outgoing {
        std::string node;  // whose channel; empty: the lobby channel (lobby_record)
        cluster::RelayRecord record;
        // Runs on the sending thread when nobody listened on the channel.
        std::function<void()> unheard;
        std::string lobby_record;
        // A request's id as JSON text ("" for none): should its owner be given up on before it
        // answers, a reply carrying this id that comes later is not delivered (relay_origin.h).
        std::string request_id;

        static Outgoing to(std::string node, cluster::RelayRecord record,
                           std::function<void()> unheard = {}) {
            Outgoing out;
            out.node = std::move(node);
            out.record = std::move(record);
            out.unheard = std::move(unheard);
            return out;
        }
    };
    // The serials of the requests a publish made wait for a word, [first, end).
    using Serials = std::pair<std::uint64_t, std::uint64_t>;

    // What the transport tells its user. Called with none of the transport's locks held.
    class Events {
    public:
        // PubSub's thread, in Redis's order: a message on this node's channel, one on the lobby
        // channel, the subscriber connection lost (false) or back with its channels (true).
        virtual void on_message(const std::string& message) = 0;
        virtual void on_lobby_message(const std::string& message) = 0;
        virtual void on_connection(bool up) = 0;
        // The sending thread, just before and just after the PUBLISH of `items` to `node`
        // (`heard`: some subscriber got it).
        virtual Serials before_publish(const std::string& node,
                                       const std::vector<Outgoing*>& items) = 0;
        virtual void after_publish(const std::string& node, Serials serials, bool heard) = 0;
        // Records for `node` were not heard (nobody listened, or the outbox was full); their
        // `unheard` ran. `fed`: that node's clients whose frames from here were dropped while
        // the node may still listen (a full outbox).
        virtual void not_heard(const std::string& node, const std::set<std::uint64_t>& fed) = 0;
        // The sending thread, every relay_sweep_interval, between two flushes.
        virtual void sweep() = 0;

    protected:
        ~Events() = default;
    };

    // Counters for GET /metrics, read from atomics.
    struct Stats {
        std::size_t queued = 0;
        std::uint64_t dropped_outbox_full = 0;
        std::uint64_t dropped_publish_failed = 0;
        std::uint64_t dropped_nobody_listening = 0;
        std::uint64_t pubsub_reconnects = 0;
    };

    RelayTransport(Events& events, std::string node_id, std::string key_prefix);
    RelayTransport(const RelayTransport&) = delete;
    RelayTransport& operator=(const RelayTransport&) = delete;
    ~RelayTransport();

    // Connects to the Redis at `redis_url`, listens on this node's channel and the lobby channel,
    // and starts the sending thread; an error says why it cannot.
    core::Status start(const std::string& redis_url);
    // Stops the sending thread, then the receiving one: nothing is sent or received after it.
    void stop();

    // Queues `outgoing` for the sending thread (any thread). A node (or the lobby channel) with
    // relay_outbox_per_node records waiting already is treated as one that did not hear them:
    // those records and this one are dropped (not_heard).
    void send(Outgoing outgoing);
    // Sweep only (the sending thread): how many listen on each node's channel, in order.
    core::Expected<std::vector<std::int64_t>> listeners(const std::vector<std::string>& nodes);

    const std::string& node_id() const { return node_id_; }
    Stats stats() const;

private:
    // Records for one node dropped unpublished: their `unheard` runs, and Events::not_heard.
    void drop(std::vector<Outgoing> records);
    void send_loop();
    // Sends what is queued: one message per node, records in order.
    void flush(std::deque<Outgoing> batch);
    // Under mutex_.
    void update_gauge() { queued_now_.store(outbox_.size() + sending_, std::memory_order_relaxed); }

    Events& events_;
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
    std::size_t sending_ = 0;  // records in the batch the sending thread publishes

    std::atomic<std::size_t> queued_now_{0};  // outbox_ and sending_
    std::atomic<std::uint64_t> dropped_outbox_full_{0};
    std::atomic<std::uint64_t> dropped_publish_failed_{0};
    std::atomic<std::uint64_t> dropped_nobody_listening_{0};

    std::thread sender_;
};

}  // namespace server
