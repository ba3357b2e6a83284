#pragma once
// Cluster mode's messages between nodes (issue 27): Redis pub/sub, the groundwork for relaying
// requests and events to the node that owns a game and for the shared lobby. At most once: a
// message published while a subscriber's connection is down is lost for it. docs/architecture.md,
// "Pub/sub (pubsub.h)".
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "core/expected.h"
#include "server/cluster/redis_client.h"

struct redisContext;
struct redisReply;

namespace server::cluster {

// Redis pub/sub between the nodes of a cluster: publish from any thread; one thread of its own
// receives the messages of the channels subscribed to and hands them to the handler in the order
// Redis delivered them.
class PubSub {
public:
    struct Options {
        std::string url;                          // redis://… or unix://… (parse_redis_url)
        std::chrono::milliseconds timeout{2000};  // connect and command timeout
    };
    // Called on the receiving thread for each message (channel and payload binary-safe). It should
    // return quickly: nothing else is received meanwhile.
    using MessageHandler =
        std::function<void(const std::string& channel, const std::string& message)>;
    // Called on the receiving thread when the subscriber connection is lost (false) and when it is
    // back with every subscription restored (true): messages published meanwhile are lost, so a
    // user resynchronises (e.g. re-reads state) on true.
    using ConnectionHandler = std::function<void(bool up)>;

    // Connects twice (publisher and subscriber) and starts the receiving thread; an error names
    // what is wrong (the URL, the timeout, or Redis).
    static core::Expected<std::unique_ptr<PubSub>> open(Options options, MessageHandler on_message,
                                                        ConnectionHandler on_connection = {});
    PubSub(const PubSub&) = delete;
    PubSub& operator=(const PubSub&) = delete;
    ~PubSub();  // stops the receiving thread promptly (not after a timeout)

    // Publishes on its own connection (behind a mutex); the number of subscribers that got it, or
    // an error. After a lost connection the first publish fails and the next one reconnects.
    core::Expected<std::int64_t> publish(const std::string& channel, const std::string& message);
    // Subscribes (or stops); returns once Redis confirmed it (or an error after the timeout), so a
    // message published after subscribe() returns is delivered (and none after unsubscribe()
    // returns). Thread-safe; not from the handlers (an error). A request already sent when its
    // timeout passes may still take effect: subscription_count() tells.
    core::Status subscribe(const std::string& channel);
    core::Status unsubscribe(const std::string& channel);
    // The channels Redis confirmed as subscribed (restored after a reconnect).
    std::size_t subscription_count() const;
    // How many times the subscriber connection was lost and then restored (GET /metrics): an
    // atomic the receiving thread counts, so asking waits for nothing.
    std::uint64_t reconnect_count() const { return reconnects_.load(std::memory_order_relaxed); }

private:
    struct ContextFree {
        void operator()(redisContext* context) const;
    };
    using Context = std::unique_ptr<redisContext, ContextFree>;
    // A subscribe or unsubscribe a caller waits for.
    struct Request {
        bool subscribe = true;
        std::string channel;
        std::uint64_t ticket = 0;
    };
    // What the receiving thread tells a waiting caller.
    struct Outcome {
        bool done = false;
        std::string error;  // empty: confirmed
    };

    PubSub(Options options, RedisUrl url, MessageHandler on_message,
           ConnectionHandler on_connection, std::unique_ptr<RedisConnection> publisher,
           Context subscriber, int wake_fd);
    // A new subscriber connection, with every channel in `channels` subscribed again.
    static core::Expected<Context> connect(const RedisUrl& url, std::chrono::milliseconds timeout,
                                           const std::set<std::string>& channels);
    core::Status request(bool subscribe, const std::string& channel);
    void wake();
    void receive_loop();
    // Sends the queued requests and handles what arrived; false when the connection failed.
    bool exchange(bool readable);
    void handle(const redisReply& reply);
    // Fails the requests in flight, reports the loss, and reconnects with a backoff; false when
    // stopping first.
    bool reconnect();
    void report_connection(bool up);

    const Options options_;
    const RedisUrl url_;
    const MessageHandler on_message_;
    const ConnectionHandler on_connection_;

    std::mutex publish_mutex_;  // guards publisher_
    std::unique_ptr<RedisConnection> publisher_;

    // The receiving thread's own: the subscriber connection, and the tickets of the requests sent
    // on it and not yet confirmed, in order.
    Context subscriber_;
    std::deque<std::uint64_t> in_flight_;
    const int wake_fd_;  // an eventfd the receiving thread polls with the connection
    std::atomic<std::uint64_t> reconnects_{0};

    mutable std::mutex state_mutex_;            // guards what follows
    std::set<std::string> channels_;            // as Redis confirmed them
    std::deque<Request> queued_;                // not sent yet
    std::map<std::uint64_t, Outcome> waiting_;  // by ticket, while its caller waits
    std::uint64_t last_ticket_ = 0;
    bool stopping_ = false;
    std::condition_variable changed_;
    std::thread receiver_;
};

}  // namespace server::cluster
