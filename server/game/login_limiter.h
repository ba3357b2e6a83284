#pragma once
// Rate limits for password attempts (login, register, change_password). Per IP address, every
// attempt counts. Per account (its username, whether it exists or not), failures count by the
// address they came from: an address that failed too often on an account is refused that account,
// and while the account is under a wide attack (many failures from everywhere) so is every address
// that has failed on it at all. An address that has not failed on an account is never refused it
// for the account's sake, so no stranger can lock its owner out. A refusal comes before any
// password is checked, with one answer for every reason, so the limiter tells nothing about which
// usernames exist. Thread-safe.
#include <chrono>
#include <cstddef>
#include <cstdint>
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
    // A wrong password (or an unknown username) for `account_key` from `ip`.
    void failed(std::string_view ip, std::string_view account_key);
    // The right password for `account_key` from `ip`: that address's failures on it are forgotten
    // (the account's count from elsewhere stays).
    void succeeded(std::string_view ip, std::string_view account_key);

    // The rule, on counts in the account window: whether an address with `address_failures` on
    // an account that has `account_failures` in all is refused it.
    static bool refused(const LoginPolicy& policy, std::int64_t address_failures,
                        std::int64_t account_failures);

    // Cluster mode (issue 27): the attempts and failures also count in `counters`, shared by
    // every node, so an address or an account meets the same limits whichever node it reaches
    // (fixed windows there, beside this node's sliding ones). While Redis cannot be reached the
    // node's own counts still apply.
    void share(std::shared_ptr<cluster::SharedCounters> counters);

private:
    using Times = std::deque<Clock::time_point>;
    // Drops the times older than `window`; returns how many are left.
    static std::size_t recent(Times& times, Clock::time_point now, std::chrono::seconds window);
    // How many times `key` has in `map` within `window` (0 when absent).
    static std::size_t recent_in(std::map<std::string, Times, std::less<>>& map,
                                 std::string_view key, Clock::time_point now,
                                 std::chrono::seconds window);
    // Now and then, forgets the keys whose times have all expired (bounds the memory).
    void sweep(Clock::time_point now);

    // Whether the shared counts allow an attempt (and count it against `ip`); true when they
    // cannot be read.
    bool shared_allows(std::string_view ip, std::string_view account_key);

    LoginPolicy policy_;
    std::shared_ptr<cluster::SharedCounters> shared_;  // set once, before the first attempt
    std::function<Clock::time_point()> now_;
    std::mutex mutex_;
    std::map<std::string, Times, std::less<>> ips_;       // attempts by address
    std::map<std::string, Times, std::less<>> pairs_;     // failures by (account, address)
    std::map<std::string, Times, std::less<>> accounts_;  // failures by account
    std::size_t calls_ = 0;
};

}  // namespace server
