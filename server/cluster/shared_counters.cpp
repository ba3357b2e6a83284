#include "server/cluster/shared_counters.h"

#include <charconv>
#include <string_view>

namespace server::cluster {

namespace {

// KEYS: the counter. ARGV: the window in ms. The count after this increment; the first one of a
// window sets its expiry.
constexpr std::string_view add_lua = R"lua(
local n = redis.call('INCR', KEYS[1])
if n == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return n
)lua";

}  // namespace

core::Expected<std::unique_ptr<SharedCounters>> SharedCounters::open(const std::string& url,
                                                                     std::string key_prefix) {
    auto parsed = parse_redis_url(url);
    if (!parsed) {
        return core::make_error(parsed.error());
    }
    auto redis = RedisConnection::open(*parsed, std::chrono::milliseconds(1000));
    if (!redis) {
        return core::make_error(redis.error());
    }
    return std::unique_ptr<SharedCounters>(
        new SharedCounters(std::move(*redis), std::move(key_prefix)));
}

core::Expected<std::int64_t> SharedCounters::add(const std::string& name,
                                                 std::chrono::milliseconds window) {
    std::lock_guard lock(mutex_);
    auto reply = redis_->command(
        {"EVAL", std::string(add_lua), "1", key(name), std::to_string(window.count())});
    if (!reply) {
        return core::make_error(reply.error());
    }
    return reply->integer;
}

core::Expected<std::int64_t> SharedCounters::count(const std::string& name) {
    std::lock_guard lock(mutex_);
    auto reply = redis_->command({"GET", key(name)});
    if (!reply) {
        return core::make_error(reply.error());
    }
    if (reply->kind == RedisReply::Kind::nil) {
        return std::int64_t{0};
    }
    std::int64_t n = 0;
    const auto& text = reply->text;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc{} || end != text.data() + text.size()) {
        return core::make_error("the counter " + key(name) + " holds '" + text + "', not a number");
    }
    return n;
}

core::Status SharedCounters::reset(const std::string& name) {
    std::lock_guard lock(mutex_);
    auto reply = redis_->command({"DEL", key(name)});
    if (!reply) {
        return core::make_error(reply.error());
    }
    return core::ok_status();
}

}  // namespace server::cluster
