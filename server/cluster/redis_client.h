#pragma once
// A small synchronous Redis client over hiredis (its blocking API, with a connect and command
// timeout): the URL a node is given, replies as plain values, and one connection that reconnects
// by itself after an I/O error. Cluster mode's leases (leases.h) and pub/sub's publisher
// (pubsub.h) use it.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.h"

struct redisContext;

namespace server::cluster {

// Where a Redis server is: a TCP host and port, or a Unix socket (tests), with an optional
// password (AUTH) and database number (SELECT).
struct RedisUrl {
    std::string host;         // empty for a Unix socket
    int port = 6379;          // TCP only
    std::string socket_path;  // unix:///path; empty for TCP
    std::string username;     // redis://user:password@… (Redis 6 ACL); usually empty
    std::string password;     // empty: no AUTH
    int db = 0;               // 0: no SELECT
};

// Reads `redis://[[user]:password@]host[:port][/db]` (port 6379, db 0 by default; an IPv6 host in
// brackets; the password percent-decoded) or `unix:///path/to.sock`. Anything else is an error
// saying what was expected; the message never repeats a password.
core::Expected<RedisUrl> parse_redis_url(std::string_view text);
// The URL without its password ("redis://:***@host:6379/2"), for logs and error messages.
std::string redacted(const RedisUrl& url);

// One reply of the server, as a value (a copy of hiredis's redisReply).
struct RedisReply {
    enum class Kind { nil, integer, string, status, array, error };
    Kind kind = Kind::nil;
    std::int64_t integer = 0;          // Kind::integer
    std::string text;                  // Kind::string, status and error (binary-safe)
    std::vector<RedisReply> elements;  // Kind::array

    bool is_error() const { return kind == Kind::error; }
};

// One connection to a Redis server. NOT thread-safe: one thread at a time uses it (a caller that
// shares one guards it with a mutex). After an I/O error (the server went away, a timeout) the
// context is dropped and the next command connects again; a failed reconnect is that command's
// error. A connection the server closed while it was idle (a restarted Redis) is noticed before a
// command is sent, so the command goes over a new connection instead of failing. The first open
// ignores SIGPIPE in the process (when nobody handles it), so that writing to a dead server fails
// with EPIPE instead of killing the server.
class RedisConnection {
public:
    // Connects within `timeout` (also every command's read and write timeout), then AUTH and SELECT
    // when the URL asks for them.
    static core::Expected<std::unique_ptr<RedisConnection>> open(const RedisUrl& url,
                                                                 std::chrono::milliseconds timeout);
    RedisConnection(const RedisConnection&) = delete;
    RedisConnection& operator=(const RedisConnection&) = delete;
    ~RedisConnection();

    // Sends one command (each argument binary-safe) and waits for its reply. An error reply, an
    // I/O failure or a timeout is an error value naming the server and the command.
    core::Expected<RedisReply> command(const std::vector<std::string>& argv);
    // Sends every command in one write and reads their replies in order. Only an I/O failure is an
    // error value; a command's error reply is a reply of Kind::error in its place.
    core::Expected<std::vector<RedisReply>> pipeline(
        const std::vector<std::vector<std::string>>& commands);

    // Whether a context is open (false after an I/O error, until the next command reconnects).
    bool connected() const { return context_ != nullptr; }
    const RedisUrl& url() const { return url_; }

private:
    RedisConnection(RedisUrl url, std::chrono::milliseconds timeout)
        : url_(std::move(url)), timeout_(timeout) {}
    core::Status connect();
    // Connects when no context is open, or when the server closed the open one while it was idle.
    core::Status ensure_connected();
    // Whether the server closed or reset the open context's socket (looked at without waiting).
    bool closed_by_server() const;
    // Frees a context that failed and returns hiredis's reason.
    std::string drop_context();
    core::Expected<RedisReply> exchange(const std::vector<std::string>& argv);

    RedisUrl url_;
    std::chrono::milliseconds timeout_;
    redisContext* context_ = nullptr;
};

}  // namespace server::cluster
