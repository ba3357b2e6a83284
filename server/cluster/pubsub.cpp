#include "server/cluster/pubsub.h"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <utility>
#include <vector>

#include "server/log.h"

namespace server::cluster {

namespace {

// After a lost connection the subscriber tries again after this long, doubling up to the maximum.
constexpr std::chrono::milliseconds pubsub_first_backoff{100};
constexpr std::chrono::milliseconds pubsub_max_backoff{2000};

const std::shared_ptr<spdlog::logger>& pubsub_log() {
    return component_logger("cluster");
}

struct timeval pubsub_timeval(std::chrono::milliseconds timeout) {
    struct timeval tv {};
    tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
    return tv;
}

struct PubSubReplyFree {
    void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using PubSubReply = std::unique_ptr<redisReply, PubSubReplyFree>;

// Queues one command (each argument binary-safe) in the context's output buffer.
bool pubsub_append(redisContext* context, const std::vector<std::string>& argv) {
    std::vector<const char*> args;
    std::vector<std::size_t> lengths;
    for (const auto& arg : argv) {
        args.push_back(arg.data());
        lengths.push_back(arg.size());
    }
    return redisAppendCommandArgv(context, static_cast<int>(args.size()), args.data(),
                                  lengths.data()) == REDIS_OK;
}

// hiredis's reason for the context's failure.
std::string pubsub_why(const redisContext& context, std::chrono::milliseconds timeout) {
    if (context.err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        return "no answer within " + std::to_string(timeout.count()) + " ms";
    }
    return context.errstr[0] ? context.errstr : "connection lost";
}

bool pubsub_is(const redisReply& reply, std::string_view text) {
    return reply.type == REDIS_REPLY_STRING && std::string_view(reply.str, reply.len) == text;
}

}  // namespace

void PubSub::ContextFree::operator()(redisContext* context) const {
    redisFree(context);
}

core::Expected<std::unique_ptr<PubSub>> PubSub::open(Options options, MessageHandler on_message,
                                                     ConnectionHandler on_connection) {
    auto url = parse_redis_url(options.url);
    if (!url) {
        return core::make_error(url.error());
    }
    if (options.timeout <= std::chrono::milliseconds::zero()) {
        return core::make_error("pub/sub: the timeout must be positive");
    }
    auto publisher = RedisConnection::open(*url, options.timeout);  // also ignores SIGPIPE
    if (!publisher) {
        return core::make_error(publisher.error());
    }
    auto subscriber = connect(*url, options.timeout, {});
    if (!subscriber) {
        return core::make_error(subscriber.error());
    }
    const int wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wake_fd < 0) {
        return core::make_error(std::string("pub/sub: eventfd: ") + std::strerror(errno));
    }
    return std::unique_ptr<PubSub>(new PubSub(
        std::move(options), std::move(*url), std::move(on_message), std::move(on_connection),
        std::move(*publisher), std::move(*subscriber), wake_fd));
}

PubSub::PubSub(Options options, RedisUrl url, MessageHandler on_message,
               ConnectionHandler on_connection, std::unique_ptr<RedisConnection> publisher,
               Context subscriber, int wake_fd)
    : options_(std::move(options)),
      url_(std::move(url)),
      on_message_(std::move(on_message)),
      on_connection_(std::move(on_connection)),
      publisher_(std::move(publisher)),
      subscriber_(std::move(subscriber)),
      wake_fd_(wake_fd) {
    receiver_ = std::thread([this] { receive_loop(); });
}

PubSub::~PubSub() {
    {
        std::lock_guard lock(state_mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    wake();
    receiver_.join();
    close(wake_fd_);
}

core::Expected<PubSub::Context> PubSub::connect(const RedisUrl& url,
                                                std::chrono::milliseconds timeout,
                                                const std::set<std::string>& channels) {
    const auto failed = [&](const std::string& why) {
        return core::make_error("Redis " + redacted(url) + ": subscriber: " + why);
    };
    const auto tv = pubsub_timeval(timeout);
    Context context(url.socket_path.empty()
                        ? redisConnectWithTimeout(url.host.c_str(), url.port, tv)
                        : redisConnectUnixWithTimeout(url.socket_path.c_str(), tv));
    if (!context) {
        return failed("out of memory");
    }
    if (context->err) {
        return failed(std::string("cannot connect: ") + context->errstr);
    }
    redisSetTimeout(context.get(), tv);
    if (url.socket_path.empty()) {
        redisEnableKeepAlive(context.get());  // finds a peer that vanished without a word
    }
    std::size_t replies = channels.size();
    if (!url.password.empty()) {
        std::vector<std::string> auth = {"AUTH"};
        if (!url.username.empty()) {
            auth.push_back(url.username);
        }
        auth.push_back(url.password);
        pubsub_append(context.get(), auth);
        ++replies;
    }
    if (!channels.empty()) {
        std::vector<std::string> subscribe = {"SUBSCRIBE"};
        subscribe.insert(subscribe.end(), channels.begin(), channels.end());
        pubsub_append(context.get(), subscribe);
    }
    // AUTH's reply, then one confirmation per channel (Redis sends them together).
    for (std::size_t i = 0; i < replies; ++i) {
        void* raw = nullptr;
        if (redisGetReply(context.get(), &raw) != REDIS_OK || !raw) {
            return failed(pubsub_why(*context, timeout));
        }
        const PubSubReply reply(static_cast<redisReply*>(raw));
        if (reply->type == REDIS_REPLY_ERROR) {
            return failed(std::string(reply->str, reply->len));
        }
    }
    return context;
}

core::Expected<std::int64_t> PubSub::publish(const std::string& channel,
                                             const std::string& message) {
    std::lock_guard lock(publish_mutex_);
    auto reply = publisher_->command({"PUBLISH", channel, message});
    if (!reply) {
        return core::make_error(reply.error());
    }
    if (reply->kind != RedisReply::Kind::integer) {
        return core::make_error("Redis " + redacted(url_) + ": PUBLISH: not a number");
    }
    return reply->integer;
}

core::Status PubSub::subscribe(const std::string& channel) {
    return request(true, channel);
}

core::Status PubSub::unsubscribe(const std::string& channel) {
    return request(false, channel);
}

std::size_t PubSub::subscription_count() const {
    std::lock_guard lock(state_mutex_);
    return channels_.size();
}

core::Status PubSub::request(bool subscribe, const std::string& channel) {
    const auto failed = [&](const std::string& why) {
        return core::make_error("Redis " + redacted(url_) + ": " +
                                (subscribe ? "SUBSCRIBE " : "UNSUBSCRIBE ") + channel + ": " + why);
    };
    if (std::this_thread::get_id() == receiver_.get_id()) {
        return failed("not from a handler (it runs on the receiving thread)");
    }
    std::unique_lock lock(state_mutex_);
    if (stopping_) {
        return failed("stopping");
    }
    const auto ticket = ++last_ticket_;
    queued_.push_back({subscribe, channel, ticket});
    const auto& outcome = waiting_[ticket];
    wake();
    const bool done = changed_.wait_for(lock, options_.timeout, [&] { return outcome.done; });
    const auto error =
        done ? outcome.error
             : "no confirmation within " + std::to_string(options_.timeout.count()) + " ms";
    waiting_.erase(ticket);
    if (!done) {
        std::erase_if(queued_, [&](const Request& queued) { return queued.ticket == ticket; });
    }
    if (!error.empty()) {
        return failed(error);
    }
    return core::ok_status();
}

void PubSub::wake() {
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = write(wake_fd_, &one, sizeof one);
}

void PubSub::receive_loop() {
    while (true) {
        pollfd fds[2] = {{subscriber_->fd, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
        if (poll(fds, 2, -1) < 0) {
            continue;  // EINTR
        }
        if (fds[1].revents & POLLIN) {
            std::uint64_t count = 0;
            [[maybe_unused]] const auto drained = read(wake_fd_, &count, sizeof count);
        }
        {
            std::lock_guard lock(state_mutex_);
            if (stopping_) {
                return;
            }
        }
        const bool readable = (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0;
        if (!exchange(readable) && !reconnect()) {
            return;
        }
    }
}

bool PubSub::exchange(bool readable) {
    std::deque<Request> sending;
    {
        std::lock_guard lock(state_mutex_);
        sending.swap(queued_);
    }
    for (const auto& request : sending) {
        in_flight_.push_back(request.ticket);
        if (!pubsub_append(subscriber_.get(),
                           {request.subscribe ? "SUBSCRIBE" : "UNSUBSCRIBE", request.channel})) {
            return false;
        }
    }
    for (int done = sending.empty() ? 1 : 0; !done;) {
        if (redisBufferWrite(subscriber_.get(), &done) != REDIS_OK) {
            return false;
        }
    }
    if (!readable) {
        return true;
    }
    if (redisBufferRead(subscriber_.get()) != REDIS_OK) {
        return false;
    }
    while (true) {
        void* raw = nullptr;
        if (redisGetReplyFromReader(subscriber_.get(), &raw) != REDIS_OK) {
            return false;
        }
        if (!raw) {
            return true;
        }
        handle(*PubSubReply(static_cast<redisReply*>(raw)));
    }
}

void PubSub::handle(const redisReply& reply) {
    const bool triple = reply.type == REDIS_REPLY_ARRAY && reply.elements == 3;
    if (triple && pubsub_is(*reply.element[0], "message")) {
        if (!on_message_) {
            return;
        }
        const auto& channel = *reply.element[1];
        const auto& payload = *reply.element[2];
        try {
            on_message_(std::string(channel.str, channel.len),
                        std::string(payload.str, payload.len));
        } catch (const std::exception& e) {
            pubsub_log()->error("pub/sub: the message handler threw: {}", e.what());
        } catch (...) {
            pubsub_log()->error("pub/sub: the message handler threw");
        }
        return;
    }
    const bool subscribed = triple && pubsub_is(*reply.element[0], "subscribe");
    const bool unsubscribed = triple && pubsub_is(*reply.element[0], "unsubscribe");
    if (!subscribed && !unsubscribed && reply.type != REDIS_REPLY_ERROR) {
        return;  // nothing else is asked for
    }
    // One confirmation (or error) per request, in the order they were sent.
    const auto ticket = in_flight_.empty() ? 0 : in_flight_.front();
    if (!in_flight_.empty()) {
        in_flight_.pop_front();
    }
    {
        std::lock_guard lock(state_mutex_);
        if (subscribed || unsubscribed) {
            std::string channel(reply.element[1]->str, reply.element[1]->len);
            if (subscribed) {
                channels_.insert(std::move(channel));
            } else {
                channels_.erase(channel);
            }
        }
        if (const auto found = waiting_.find(ticket); found != waiting_.end()) {
            found->second.done = true;
            if (reply.type == REDIS_REPLY_ERROR) {
                found->second.error.assign(reply.str, reply.len);
            }
        }
    }
    changed_.notify_all();
}

bool PubSub::reconnect() {
    pubsub_log()->warn("Redis {}: the subscriber connection is lost ({}), reconnecting",
                       redacted(url_), pubsub_why(*subscriber_, options_.timeout));
    subscriber_.reset();
    std::set<std::string> channels;
    {
        std::lock_guard lock(state_mutex_);
        for (const auto ticket : in_flight_) {
            if (const auto found = waiting_.find(ticket); found != waiting_.end()) {
                found->second = {true, "the connection was lost"};
            }
        }
        channels = channels_;
    }
    in_flight_.clear();
    changed_.notify_all();
    report_connection(false);
    for (auto backoff = pubsub_first_backoff;;
         backoff = std::min(backoff * 2, pubsub_max_backoff)) {
        {
            std::unique_lock lock(state_mutex_);
            if (changed_.wait_for(lock, backoff, [this] { return stopping_; })) {
                return false;
            }
        }
        auto context = connect(url_, options_.timeout, channels);
        if (context) {
            subscriber_ = std::move(*context);
            break;
        }
        pubsub_log()->debug("pub/sub: {}", context.error());
    }
    reconnects_.fetch_add(1, std::memory_order_relaxed);
    pubsub_log()->info("Redis {}: the subscriber is back, {} channels subscribed again",
                       redacted(url_), channels.size());
    report_connection(true);
    return true;
}

void PubSub::report_connection(bool up) {
    if (!on_connection_) {
        return;
    }
    try {
        on_connection_(up);
    } catch (const std::exception& e) {
        pubsub_log()->error("pub/sub: the connection handler threw: {}", e.what());
    } catch (...) {
        pubsub_log()->error("pub/sub: the connection handler threw");
    }
}

}  // namespace server::cluster
