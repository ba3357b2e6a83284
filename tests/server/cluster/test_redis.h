#pragma once
// The Redis server cluster mode's tests use: the one the ctest fixture started (its folder in
// $CHESSENCE_TEST_REDIS, tests/support/redis.sh), else, like the PostgreSQL tests, one this
// program starts with tests/support/redis.sh on first use and stops when it ends. Without either
// the URL is an error value, and the tests that need it fail.
#include <string>

#include "core/expected.h"

namespace test {

// unix://<folder>/redis.sock of the tests' Redis server, or why there is none.
core::Expected<std::string> test_redis_url();
// A key prefix no other test (or run) uses: "test:<pid>:<n>:".
std::string unique_prefix();

// A Redis server of one test's own (tests/support/redis.sh) that the test may stop and start
// again; stopped and removed when it goes.
class PrivateRedis {
public:
    PrivateRedis();
    PrivateRedis(const PrivateRedis&) = delete;
    PrivateRedis& operator=(const PrivateRedis&) = delete;
    ~PrivateRedis();

    bool start();
    bool stop();
    std::string url() const { return "unix://" + folder_ + "/redis.sock"; }

private:
    std::string folder_;
};

}  // namespace test
