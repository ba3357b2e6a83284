#include "server/cluster/redis_client.h"

#include <hiredis/hiredis.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <mutex>
#include <optional>

#include "core/percent.h"

namespace server::cluster {

namespace {

constexpr std::string_view redis_scheme = "redis://";
constexpr std::string_view unix_scheme = "unix://";
constexpr std::string_view url_forms = "redis://[:password@]host[:port][/db] or unix:///path";

// A decimal number in [low, high], or nothing.
std::optional<int> number_in(std::string_view text, int low, int high) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || value < low ||
        value > high) {
        return std::nullopt;
    }
    return value;
}

core::Error url_error(std::string_view why) {
    return core::make_error("Redis URL: " + std::string(why) + " (expected " +
                            std::string(url_forms) + ")");
}

core::Expected<RedisUrl> parse_tcp(std::string_view rest) {
    RedisUrl url;
    if (rest.find_first_of("?#") != std::string_view::npos) {
        return url_error("query strings and fragments are not supported");
    }
    std::string_view authority = rest.substr(0, rest.find('/'));
    if (authority.size() < rest.size()) {
        const auto db_text = rest.substr(authority.size() + 1);
        if (!db_text.empty()) {
            const auto db = number_in(db_text, 0, 1 << 20);
            if (!db) {
                return url_error("the database after '/' must be a number");
            }
            url.db = *db;
        }
    }
    if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
        const auto userinfo = authority.substr(0, at);
        authority = authority.substr(at + 1);
        const auto colon = userinfo.find(':');
        if (colon == std::string_view::npos) {
            return url_error("the part before '@' must be ':password' or 'user:password'");
        }
        auto user = core::percent_decode(userinfo.substr(0, colon));
        auto password = core::percent_decode(userinfo.substr(colon + 1));
        if (!user || !password) {
            return url_error("a bad %-escape before '@'");
        }
        url.username = std::move(*user);
        url.password = std::move(*password);
        if (url.password.empty()) {
            return url_error("an empty password after ':'");
        }
    }
    std::string_view port_text;
    if (authority.starts_with('[')) {
        const auto close = authority.find(']');
        if (close == std::string_view::npos) {
            return url_error("an IPv6 host needs its closing ']'");
        }
        url.host = std::string(authority.substr(1, close - 1));
        const auto after = authority.substr(close + 1);
        if (!after.empty() && !after.starts_with(':')) {
            return url_error("only ':port' may follow an IPv6 host");
        }
        port_text = after.empty() ? after : after.substr(1);
        if (after == ":") {
            return url_error("an empty port after ':'");
        }
    } else {
        const auto colon = authority.find(':');
        url.host = std::string(authority.substr(0, colon));
        if (colon != std::string_view::npos) {
            port_text = authority.substr(colon + 1);
            if (port_text.empty()) {
                return url_error("an empty port after ':'");
            }
        }
    }
    if (url.host.empty()) {
        return url_error("no host");
    }
    if (!port_text.empty()) {
        const auto port = number_in(port_text, 1, 65535);
        if (!port) {
            return url_error("the port must be a number from 1 to 65535");
        }
        url.port = *port;
    }
    return url;
}

struct timeval to_timeval(std::chrono::milliseconds timeout) {
    struct timeval tv {};
    tv.tv_sec = static_cast<time_t>(timeout.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>((timeout.count() % 1000) * 1000);
    return tv;
}

// Writing to a server that went away raises SIGPIPE, whose default action ends the process.
void ignore_sigpipe_once() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction current {};
        if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
            struct sigaction ignore {};
            ignore.sa_handler = SIG_IGN;
            sigemptyset(&ignore.sa_mask);
            sigaction(SIGPIPE, &ignore, nullptr);
        }
    });
}

RedisReply converted(const redisReply& raw) {
    RedisReply reply;
    switch (raw.type) {
        case REDIS_REPLY_INTEGER:
            reply.kind = RedisReply::Kind::integer;
            reply.integer = raw.integer;
            break;
        case REDIS_REPLY_STRING:
        case REDIS_REPLY_STATUS:
        case REDIS_REPLY_ERROR:
            reply.kind = raw.type == REDIS_REPLY_STRING   ? RedisReply::Kind::string
                         : raw.type == REDIS_REPLY_STATUS ? RedisReply::Kind::status
                                                          : RedisReply::Kind::error;
            reply.text.assign(raw.str, raw.len);
            break;
        case REDIS_REPLY_ARRAY:
            reply.kind = RedisReply::Kind::array;
            reply.elements.reserve(raw.elements);
            for (std::size_t i = 0; i < raw.elements; ++i) {
                reply.elements.push_back(converted(*raw.element[i]));
            }
            break;
        default:
            reply.kind = RedisReply::Kind::nil;
            break;
    }
    return reply;
}

}  // namespace

core::Expected<RedisUrl> parse_redis_url(std::string_view text) {
    if (text.starts_with(unix_scheme)) {
        const auto path = text.substr(unix_scheme.size());
        if (!path.starts_with('/') || path.size() < 2) {
            return url_error("a Unix socket needs an absolute path (unix:///path/to.sock)");
        }
        RedisUrl url;
        url.socket_path = std::string(path);
        return url;
    }
    if (!text.starts_with(redis_scheme)) {
        const auto scheme_end = text.find("://");
        return url_error(scheme_end == std::string_view::npos
                             ? "no scheme"
                             : "unknown scheme '" + std::string(text.substr(0, scheme_end)) + "'");
    }
    return parse_tcp(text.substr(redis_scheme.size()));
}

std::string redacted(const RedisUrl& url) {
    if (!url.socket_path.empty()) {
        return "unix://" + url.socket_path;
    }
    std::string text(redis_scheme);
    if (!url.password.empty()) {
        text += url.username + ":***@";
    }
    text += url.host.find(':') == std::string::npos ? url.host : "[" + url.host + "]";
    text += ":" + std::to_string(url.port);
    if (url.db != 0) {
        text += "/" + std::to_string(url.db);
    }
    return text;
}

core::Expected<std::unique_ptr<RedisConnection>> RedisConnection::open(
    const RedisUrl& url, std::chrono::milliseconds timeout) {
    ignore_sigpipe_once();
    auto connection = std::unique_ptr<RedisConnection>(new RedisConnection(url, timeout));
    if (auto connected = connection->connect(); !connected) {
        return core::make_error(connected.error());
    }
    return connection;
}

RedisConnection::~RedisConnection() {
    if (context_) {
        redisFree(context_);
    }
}

core::Status RedisConnection::connect() {
    const auto tv = to_timeval(timeout_);
    redisContext* context = url_.socket_path.empty()
                                ? redisConnectWithTimeout(url_.host.c_str(), url_.port, tv)
                                : redisConnectUnixWithTimeout(url_.socket_path.c_str(), tv);
    if (!context) {
        return core::make_error("Redis " + redacted(url_) + ": out of memory");
    }
    if (context->err) {
        std::string why = context->errstr;
        redisFree(context);
        return core::make_error("Redis " + redacted(url_) + ": cannot connect: " + why);
    }
    redisSetTimeout(context, tv);
    if (url_.socket_path.empty()) {
        redisEnableKeepAlive(context);  // an idle connection to a vanished peer is found out
    }
    context_ = context;
    if (!url_.password.empty()) {
        std::vector<std::string> auth = {"AUTH"};
        if (!url_.username.empty()) {
            auth.push_back(url_.username);
        }
        auth.push_back(url_.password);
        if (auto done = exchange(auth); !done) {
            drop_context();
            return core::make_error(done.error());
        }
    }
    if (url_.db != 0) {
        if (auto done = exchange({"SELECT", std::to_string(url_.db)}); !done) {
            drop_context();
            return core::make_error(done.error());
        }
    }
    return core::ok_status();
}

core::Status RedisConnection::ensure_connected() {
    if (context_ && closed_by_server()) {
        // The server closed this connection while it sat idle (it restarted, or it dropped idle
        // clients): nothing of the next command was sent, so connecting again first loses nothing
        // and sends nothing twice.
        redisFree(context_);
        context_ = nullptr;
    }
    return context_ ? core::ok_status() : connect();
}

bool RedisConnection::closed_by_server() const {
    // Between commands a Redis connection has nothing to read (no RESP3 pushes, no tracking): a
    // readable socket is one the server closed or reset.
    pollfd polled{context_->fd, POLLIN | POLLRDHUP, 0};
    if (::poll(&polled, 1, 0) <= 0) {
        return false;
    }
    if (polled.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) {
        return true;
    }
    char byte = 0;
    return ::recv(context_->fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) <= 0;
}

std::string RedisConnection::drop_context() {
    const int error = errno;  // of the read or write that failed
    std::string why = "not connected";
    if (context_) {
        why = context_->errstr[0] ? context_->errstr : "connection lost";
        // The socket's timeout (SO_RCVTIMEO, SO_SNDTIMEO) ran out: EAGAIN, which hiredis 1.x
        // reports as a timeout of its own.
        bool timed_out = context_->err == REDIS_ERR_IO &&
                         (error == EAGAIN || error == EWOULDBLOCK ||
                          std::strcmp(context_->errstr, std::strerror(EAGAIN)) == 0);
#ifdef REDIS_ERR_TIMEOUT
        timed_out = timed_out || context_->err == REDIS_ERR_TIMEOUT;
#endif
        if (timed_out) {
            why = "no answer within " + std::to_string(timeout_.count()) + " ms";
        }
        redisFree(context_);
        context_ = nullptr;
    }
    return why;
}

core::Expected<RedisReply> RedisConnection::exchange(const std::vector<std::string>& argv) {
    std::vector<const char*> args;
    std::vector<std::size_t> lengths;
    for (const auto& arg : argv) {
        args.push_back(arg.data());
        lengths.push_back(arg.size());
    }
    auto* raw = static_cast<redisReply*>(
        redisCommandArgv(context_, static_cast<int>(args.size()), args.data(), lengths.data()));
    if (!raw) {
        return core::make_error("Redis " + redacted(url_) + ": " + argv.front() + ": " +
                                drop_context());
    }
    auto reply = converted(*raw);
    freeReplyObject(raw);
    if (reply.is_error()) {
        return core::make_error("Redis " + redacted(url_) + ": " + argv.front() + ": " +
                                reply.text);
    }
    return reply;
}

core::Expected<RedisReply> RedisConnection::command(const std::vector<std::string>& argv) {
    if (argv.empty()) {
        return core::make_error("Redis " + redacted(url_) + ": an empty command");
    }
    if (auto connected = ensure_connected(); !connected) {
        return core::make_error(connected.error());
    }
    return exchange(argv);
}

core::Expected<std::vector<RedisReply>> RedisConnection::pipeline(
    const std::vector<std::vector<std::string>>& commands) {
    std::vector<RedisReply> replies;
    if (commands.empty()) {
        return replies;
    }
    if (auto connected = ensure_connected(); !connected) {
        return core::make_error(connected.error());
    }
    for (const auto& argv : commands) {
        if (argv.empty()) {
            return core::make_error("Redis " + redacted(url_) + ": an empty command");
        }
    }
    for (const auto& argv : commands) {
        std::vector<const char*> args;
        std::vector<std::size_t> lengths;
        for (const auto& arg : argv) {
            args.push_back(arg.data());
            lengths.push_back(arg.size());
        }
        if (redisAppendCommandArgv(context_, static_cast<int>(args.size()), args.data(),
                                   lengths.data()) != REDIS_OK) {
            return core::make_error("Redis " + redacted(url_) + ": pipeline: " + drop_context());
        }
    }
    replies.reserve(commands.size());
    for (std::size_t i = 0; i < commands.size(); ++i) {
        void* raw = nullptr;
        if (redisGetReply(context_, &raw) != REDIS_OK || !raw) {
            return core::make_error("Redis " + redacted(url_) + ": pipeline: " + drop_context());
        }
        replies.push_back(converted(*static_cast<redisReply*>(raw)));
        freeReplyObject(raw);
    }
    return replies;
}

}  // namespace server::cluster
