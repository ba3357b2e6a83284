#include "server/cluster/test_redis.h"

#include <atomic>
#include <cstdlib>

#include <unistd.h>

namespace test {

namespace {

std::string redis_script() {
    // Appended, not concatenated with +: GCC 12 sees a false out-of-bounds copy in the latter.
    std::string script = CHESSENCE_SOURCE_DIR;
    script.append("/tests/support/redis.sh");
    return script;
}

bool run_redis_script(const std::string& command, const std::string& folder) {
    const auto line = redis_script() + " " + command + " " + folder;
    return std::system(line.c_str()) == 0;
}

// The tests' shared Redis server: its folder, or why there is none.
class TestRedis {
public:
    static TestRedis& shared() {
        static TestRedis server;
        return server;
    }
    const core::Expected<std::string>& folder() const { return folder_; }

    ~TestRedis() {
        if (owned_ && folder_) {
            run_redis_script("stop", *folder_);
        }
    }

private:
    TestRedis() : folder_(start()) {}

    core::Expected<std::string> start() {
        if (const char* given = std::getenv("CHESSENCE_TEST_REDIS"); given && *given) {
            return std::string(given);
        }
        const auto folder = "/tmp/chessence-redis-" + std::to_string(::getpid());
        if (!run_redis_script("start", folder)) {
            return core::make_error(
                "CHESSENCE_TEST_REDIS is not set and no Redis server could "
                "be started in " +
                folder + " (" + redis_script() + ")");
        }
        owned_ = true;
        return folder;
    }

    core::Expected<std::string> folder_;
    bool owned_ = false;
};

std::atomic<int> next_private{0};

}  // namespace

core::Expected<std::string> test_redis_url() {
    const auto& folder = TestRedis::shared().folder();
    if (!folder) {
        return core::make_error(folder.error());
    }
    return "unix://" + *folder + "/redis.sock";
}

std::string unique_prefix() {
    static std::atomic<int> counter{0};
    return "test:" + std::to_string(::getpid()) + ":" + std::to_string(counter++) + ":";
}

PrivateRedis::PrivateRedis()
    : folder_("/tmp/chessence-redis-own-" + std::to_string(::getpid()) + "-" +
              std::to_string(next_private++)) {}

PrivateRedis::~PrivateRedis() {
    stop();
}

bool PrivateRedis::start() {
    return run_redis_script("start", folder_);
}

bool PrivateRedis::stop() {
    return run_redis_script("stop", folder_);
}

}  // namespace test
