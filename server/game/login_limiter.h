#pragma once
// Rate limits for password attempts (login, register, change_password): per IP address, every
// attempt counts; per account (its username, whether it exists or not), every failure counts. An
// attempt over either limit is refused before any password is checked, with the same answer for
// both, so the limiter tells nothing about which usernames exist. Thread-safe.
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "server/limits.h"

namespace server {

namespace cluster {
class SharedCounters;
}

class LoginLimiter {
public:
    using Clock = std::chrono::steady_clock;

    explicit LoginLimiter(LoginPolicy policy = {},
                          std::function<Clock::time_point()> now = &Clock::now);

    // Whether an attempt from `ip` (on `account_key`, "" if none) may go ahead; if so it counts
    // against the IP address.
    bool try_attempt(std::string_view ip, std::string_view account_key);
    // A wrong password (or an unknown username) for `account_key`.
    void failed(std::string_view account_key);
    // The right password: the account's failures are forgotten.
    void succeeded(std::string_view account_key);

    // Cluster mode (issue 27): the attempts and failures also count in `counters`, shared by
    // every node, so an address or an account meets the same limits whichever node it reaches
    // (fixed windows there, beside this node's sliding ones). While Redis cannot be reached the
    // node's own counts still apply.
    void share(std::shared_ptr<cluster::SharedCounters> counters);

private:
    using Times = std::deque<Clock::time_point>;
    // Drops the times older than `window`; returns how many are left.
    static std::size_t recent(Times& times, Clock::time_point now, std::chrono::seconds window);
    // Now and then, forgets the keys whose times have all expired (bounds the memory).
    void sweep(Clock::time_point now);

    // Whether the shared counts allow an attempt (and count it against `ip`); true when they
    // cannot be read.
    bool shared_allows(std::string_view ip, std::string_view account_key);

    LoginPolicy policy_;
    std::shared_ptr<cluster::SharedCounters> shared_;  // set once, before the first attempt
    std::function<Clock::time_point()> now_;
    std::mutex mutex_;
    std::map<std::string, Times, std::less<>> ips_;
    std::map<std::string, Times, std::less<>> accounts_;
    std::size_t calls_ = 0;
};

}  // namespace server
