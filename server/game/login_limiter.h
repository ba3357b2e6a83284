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
#include <mutex>
#include <string>
#include <string_view>

#include "server/limits.h"

namespace server {

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

private:
    using Times = std::deque<Clock::time_point>;
    // Drops the times older than `window`; returns how many are left.
    static std::size_t recent(Times& times, Clock::time_point now, std::chrono::seconds window);
    // Now and then, forgets the keys whose times have all expired (bounds the memory).
    void sweep(Clock::time_point now);

    LoginPolicy policy_;
    std::function<Clock::time_point()> now_;
    std::mutex mutex_;
    std::map<std::string, Times, std::less<>> ips_;
    std::map<std::string, Times, std::less<>> accounts_;
    std::size_t calls_ = 0;
};

}  // namespace server
