#pragma once
// Counters every node of a cluster shares (issue 27): the limits that must count across nodes, so
// that a load balancer spreading one address's attempts over N nodes does not multiply them by N
// (password attempts, game/login_limiter.h). Fixed windows in Redis: a key counts from its first
// increment and expires `window` after it. Thread-safe: one connection behind a mutex.
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "core/expected.h"
#include "server/cluster/redis_client.h"

namespace server::cluster {

class SharedCounters {
public:
    // Connects to the Redis at `url`; keys are "<key_prefix>limit:<key>".
    static core::Expected<std::unique_ptr<SharedCounters>> open(const std::string& url,
                                                                std::string key_prefix);

    // Counts one more for `key`: the count in its window now, this one included.
    core::Expected<std::int64_t> add(const std::string& key, std::chrono::milliseconds window);
    // The count of `key` in its window (0 when it has none).
    core::Expected<std::int64_t> count(const std::string& key);
    // Forgets `key`'s count.
    core::Status reset(const std::string& key);

private:
    SharedCounters(std::unique_ptr<RedisConnection> redis, std::string key_prefix)
        : redis_(std::move(redis)), key_prefix_(std::move(key_prefix)) {}
    std::string key(const std::string& name) const { return key_prefix_ + "limit:" + name; }

    std::mutex mutex_;
    std::unique_ptr<RedisConnection> redis_;
    const std::string key_prefix_;
};

}  // namespace server::cluster
