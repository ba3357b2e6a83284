#include "server/cluster/redis_client.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "server/cluster/test_redis.h"
#include "server/silent_listener.h"

namespace {

using server::cluster::parse_redis_url;
using server::cluster::redacted;
using server::cluster::RedisConnection;
using server::cluster::RedisReply;
using namespace std::chrono_literals;

TEST(RedisUrl, ReadsTcpForms) {
    const auto plain = parse_redis_url("redis://cache.example:6380");
    ASSERT_TRUE(plain) << plain.error();
    EXPECT_EQ(plain->host, "cache.example");
    EXPECT_EQ(plain->port, 6380);
    EXPECT_EQ(plain->db, 0);
    EXPECT_TRUE(plain->password.empty());
    EXPECT_TRUE(plain->socket_path.empty());

    const auto default_port = parse_redis_url("redis://cache");
    ASSERT_TRUE(default_port) << default_port.error();
    EXPECT_EQ(default_port->host, "cache");
    EXPECT_EQ(default_port->port, 6379);

    const auto with_password = parse_redis_url("redis://:s3cr%40t@10.0.0.5:7000");
    ASSERT_TRUE(with_password) << with_password.error();
    EXPECT_EQ(with_password->password, "s3cr@t");
    EXPECT_TRUE(with_password->username.empty());
    EXPECT_EQ(with_password->host, "10.0.0.5");
    EXPECT_EQ(with_password->port, 7000);

    const auto with_db = parse_redis_url("redis://cache:6379/3");
    ASSERT_TRUE(with_db) << with_db.error();
    EXPECT_EQ(with_db->db, 3);

    const auto ipv6 = parse_redis_url("redis://[::1]:6390/1");
    ASSERT_TRUE(ipv6) << ipv6.error();
    EXPECT_EQ(ipv6->host, "::1");
    EXPECT_EQ(ipv6->port, 6390);
    EXPECT_EQ(ipv6->db, 1);
}

TEST(RedisUrl, ReadsUnixSocket) {
    const auto url = parse_redis_url("unix:///tmp/some dir/redis.sock");
    ASSERT_TRUE(url) << url.error();
    EXPECT_EQ(url->socket_path, "/tmp/some dir/redis.sock");
    EXPECT_TRUE(url->host.empty());
}

TEST(RedisUrl, RejectsOtherFormsClearly) {
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"", "no scheme"},
        {"cache:6379", "no scheme"},
        {"http://cache:6379", "unknown scheme 'http'"},
        {"rediss://cache", "unknown scheme 'rediss'"},
        {"redis://", "no host"},
        {"redis://:6379", "no host"},
        {"redis://cache:", "empty port"},
        {"redis://cache:0", "port"},
        {"redis://cache:70000", "port"},
        {"redis://cache:63x9", "port"},
        {"redis://cache/x", "database"},
        {"redis://cache/-1", "database"},
        {"redis://cache?db=2", "query"},
        {"redis://s3cret@cache", "before '@'"},
        {"redis://:@cache", "empty password"},
        {"redis://:s3cret%zz@cache", "%-escape"},
        {"redis://[::1", "']'"},
        {"unix://", "absolute path"},
        {"unix://relative.sock", "absolute path"},
    };
    for (const auto& [text, why] : bad) {
        const auto url = parse_redis_url(text);
        ASSERT_FALSE(url) << text;
        EXPECT_NE(url.error().find("Redis URL"), std::string::npos) << url.error();
        EXPECT_NE(url.error().find(why), std::string::npos) << text << ": " << url.error();
        EXPECT_EQ(url.error().find("s3cret"), std::string::npos) << url.error();
    }
}

TEST(RedisUrl, RedactedNeverShowsThePassword) {
    const auto url = parse_redis_url("redis://:s3cret@cache:6380/2");
    ASSERT_TRUE(url) << url.error();
    EXPECT_EQ(redacted(*url), "redis://:***@cache:6380/2");
    EXPECT_EQ(redacted(*parse_redis_url("redis://cache")), "redis://cache:6379");
    EXPECT_EQ(redacted(*parse_redis_url("unix:///tmp/r.sock")), "unix:///tmp/r.sock");
}

// A connection to the tests' Redis server, and keys no other test uses.
class RedisClient : public testing::Test {
protected:
    void SetUp() override {
        const auto text = test::test_redis_url();
        ASSERT_TRUE(text) << text.error();
        const auto url = parse_redis_url(*text);
        ASSERT_TRUE(url) << url.error();
        auto opened = RedisConnection::open(*url, 1000ms);
        ASSERT_TRUE(opened) << opened.error();
        redis_ = std::move(*opened);
    }
    std::string key(const std::string& name) const { return prefix_ + name; }

    std::unique_ptr<RedisConnection> redis_;
    const std::string prefix_ = test::unique_prefix();
};

TEST_F(RedisClient, CommandRoundTrip) {
    const auto set = redis_->command({"SET", key("a"), "hello"});
    ASSERT_TRUE(set) << set.error();
    EXPECT_EQ(set->kind, RedisReply::Kind::status);
    EXPECT_EQ(set->text, "OK");

    const auto get = redis_->command({"GET", key("a")});
    ASSERT_TRUE(get) << get.error();
    EXPECT_EQ(get->kind, RedisReply::Kind::string);
    EXPECT_EQ(get->text, "hello");

    const auto missing = redis_->command({"GET", key("missing")});
    ASSERT_TRUE(missing) << missing.error();
    EXPECT_EQ(missing->kind, RedisReply::Kind::nil);

    const auto counted = redis_->command({"INCRBY", key("n"), "41"});
    ASSERT_TRUE(counted) << counted.error();
    EXPECT_EQ(counted->kind, RedisReply::Kind::integer);
    EXPECT_EQ(counted->integer, 41);

    ASSERT_TRUE(redis_->command({"RPUSH", key("list"), "x", "y", "z"}));
    const auto range = redis_->command({"LRANGE", key("list"), "0", "-1"});
    ASSERT_TRUE(range) << range.error();
    ASSERT_EQ(range->kind, RedisReply::Kind::array);
    ASSERT_EQ(range->elements.size(), 3u);
    EXPECT_EQ(range->elements[0].text, "x");
    EXPECT_EQ(range->elements[2].text, "z");
}

TEST_F(RedisClient, ValuesAreBinarySafe) {
    constexpr char raw[] = "nul\0 crlf\r\n space \xff\xfe end";
    const std::string value(raw, sizeof raw - 1);
    const std::string binary_key = key(std::string("k\0 \r\n", 5));
    ASSERT_TRUE(redis_->command({"SET", binary_key, value}));
    const auto get = redis_->command({"GET", binary_key});
    ASSERT_TRUE(get) << get.error();
    EXPECT_EQ(get->text, value);
    EXPECT_EQ(get->text.size(), sizeof raw - 1);
    const auto empty = redis_->command({"SET", key("empty"), ""});
    ASSERT_TRUE(empty) << empty.error();
    EXPECT_EQ(redis_->command({"GET", key("empty")})->text, "");
}

TEST_F(RedisClient, ErrorReplyIsAnErrorValue) {
    ASSERT_TRUE(redis_->command({"SET", key("word"), "not a number"}));
    const auto incr = redis_->command({"INCR", key("word")});
    ASSERT_FALSE(incr);
    EXPECT_NE(incr.error().find("INCR"), std::string::npos) << incr.error();
    EXPECT_NE(incr.error().find("not an integer"), std::string::npos) << incr.error();
    const auto unknown = redis_->command({"NO_SUCH_COMMAND"});
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().find("unknown command"), std::string::npos) << unknown.error();
    EXPECT_FALSE(redis_->command({}));
    // The connection is still good.
    const auto ping = redis_->command({"PING"});
    ASSERT_TRUE(ping) << ping.error();
    EXPECT_EQ(ping->text, "PONG");
}

TEST_F(RedisClient, PipelineKeepsEachReplyInPlace) {
    ASSERT_TRUE(redis_->command({"SET", key("word"), "text"}));
    const auto replies = redis_->pipeline(
        {{"SET", key("p"), "1"}, {"INCR", key("word")}, {"INCR", key("p")}, {"GET", key("p")}});
    ASSERT_TRUE(replies) << replies.error();
    ASSERT_EQ(replies->size(), 4u);
    EXPECT_EQ((*replies)[0].text, "OK");
    EXPECT_TRUE((*replies)[1].is_error());
    EXPECT_EQ((*replies)[2].integer, 2);
    EXPECT_EQ((*replies)[3].text, "2");
}

TEST(RedisConnectionOpen, NoServerIsAClearError) {
    const auto url = parse_redis_url("unix:///nonexistent/chessence/redis.sock");
    ASSERT_TRUE(url) << url.error();
    const auto opened = RedisConnection::open(*url, 200ms);
    ASSERT_FALSE(opened);
    EXPECT_NE(opened.error().find("unix:///nonexistent/chessence/redis.sock"), std::string::npos)
        << opened.error();
    EXPECT_NE(opened.error().find("cannot connect"), std::string::npos) << opened.error();
}

// A Redis server that dies under an open connection: an error value (no crash, no SIGPIPE), and
// the connection comes back by itself once the server does.
TEST(RedisConnectionOpen, DeadServerIsAnErrorThenReconnects) {
    test::PrivateRedis server;
    ASSERT_TRUE(server.start());
    const auto url = parse_redis_url(server.url());
    ASSERT_TRUE(url) << url.error();
    auto opened = RedisConnection::open(*url, 500ms);
    ASSERT_TRUE(opened) << opened.error();
    auto& redis = **opened;
    ASSERT_TRUE(redis.command({"SET", "k", "v"}));

    ASSERT_TRUE(server.stop());
    const auto after_death = redis.command({"SET", "k", std::string(100000, 'x')});
    ASSERT_FALSE(after_death);
    EXPECT_NE(after_death.error().find(server.url()), std::string::npos) << after_death.error();
    EXPECT_FALSE(redis.connected());
    const auto still_dead = redis.command({"PING"});
    ASSERT_FALSE(still_dead);
    EXPECT_NE(still_dead.error().find("cannot connect"), std::string::npos) << still_dead.error();
    EXPECT_FALSE(redis.pipeline({{"PING"}}));

    ASSERT_TRUE(server.start());
    const auto back = redis.command({"PING"});
    ASSERT_TRUE(back) << back.error();
    EXPECT_EQ(back->text, "PONG");
    EXPECT_TRUE(redis.connected());
}

// A Redis that restarts while the connection sits idle (issue 42): the first command after it
// goes over a new connection and succeeds — the publisher's first PUBLISH after a Redis restart
// failed with a broken pipe, and its records were dropped.
TEST(RedisConnectionOpen, ARestartBetweenCommandsCostsNoCommand) {
    test::PrivateRedis server;
    ASSERT_TRUE(server.start());
    const auto url = parse_redis_url(server.url());
    ASSERT_TRUE(url) << url.error();
    auto opened = RedisConnection::open(*url, 500ms);
    ASSERT_TRUE(opened) << opened.error();
    auto& redis = **opened;
    ASSERT_TRUE(redis.command({"PING"}));

    ASSERT_TRUE(server.stop());
    ASSERT_TRUE(server.start());
    const auto published = redis.command({"PUBLISH", "channel", std::string(1000, 'x')});
    ASSERT_TRUE(published) << published.error();
    EXPECT_EQ(published->kind, RedisReply::Kind::integer);
    const auto piped = redis.pipeline({{"PING"}, {"PING"}});
    ASSERT_TRUE(piped) << piped.error();
    EXPECT_EQ(piped->size(), 2u);

    // Once more with a pipeline first.
    ASSERT_TRUE(server.stop());
    ASSERT_TRUE(server.start());
    const auto first = redis.pipeline({{"SET", "k", "v"}, {"GET", "k"}});
    ASSERT_TRUE(first) << first.error();
    ASSERT_EQ(first->size(), 2u);
    EXPECT_EQ((*first)[1].text, "v");
}

// A Redis whose process is stopped: a port that accepts and never answers.
class SilentRedis {
public:
    std::string url(const std::string& password = "") const {
        return "redis://" + (password.empty() ? "" : ":" + password + "@") +
               "127.0.0.1:" + std::to_string(listener_.port());
    }

private:
    test::SilentListener listener_;
};

double seconds_of(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A server that accepts and never answers (issue 42): opening with AUTH, a command and a pipeline
// each fail within the timeout and say so; the connection is dropped, and the next command
// connects again (and fails within the timeout again).
TEST(RedisConnectionOpen, AServerThatNeverAnswersIsAnErrorWithinTheTimeout) {
    SilentRedis silent;
    const auto with_password = parse_redis_url(silent.url("s3cret"));
    ASSERT_TRUE(with_password) << with_password.error();
    auto start = std::chrono::steady_clock::now();
    const auto refused = RedisConnection::open(*with_password, 300ms);
    auto took = seconds_of(start);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().find("AUTH: no answer within 300 ms"), std::string::npos)
        << refused.error();
    EXPECT_EQ(refused.error().find("s3cret"), std::string::npos) << refused.error();
    EXPECT_GE(took, 0.25);
    EXPECT_LT(took, 2.0);

    const auto url = parse_redis_url(silent.url());
    ASSERT_TRUE(url) << url.error();
    auto opened = RedisConnection::open(*url, 300ms);  // nothing is asked without AUTH or SELECT
    ASSERT_TRUE(opened) << opened.error();
    auto& redis = **opened;
    for (int attempt = 0; attempt < 2; ++attempt) {
        start = std::chrono::steady_clock::now();
        const auto ping = redis.command({"PING"});
        took = seconds_of(start);
        ASSERT_FALSE(ping) << "attempt " << attempt;
        EXPECT_NE(ping.error().find("PING: no answer within 300 ms"), std::string::npos)
            << ping.error();
        EXPECT_GE(took, 0.25);
        EXPECT_LT(took, 2.0);
        EXPECT_FALSE(redis.connected()) << "dropped; the next command connects again";
    }
    start = std::chrono::steady_clock::now();
    const auto piped = redis.pipeline({{"PING"}, {"PING"}});
    ASSERT_FALSE(piped);
    EXPECT_NE(piped.error().find("no answer within 300 ms"), std::string::npos) << piped.error();
    EXPECT_LT(seconds_of(start), 2.0);
    EXPECT_FALSE(redis.connected());
}

}  // namespace
