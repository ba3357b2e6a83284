#include "server/game/login_limiter.h"

#include <cstdint>

#include "server/cluster/shared_counters.h"
#include "server/log.h"

namespace server {

namespace {

// Calls between two sweeps of expired keys.
constexpr std::size_t login_sweep_every = 1024;

// The key of an (account, address) pair; a username never holds a newline.
std::string pair_key(std::string_view account_key, std::string_view ip) {
    std::string key(account_key);
    key += '\n';
    key += ip;
    return key;
}

void warn_unshared(std::string_view what, const std::string& error) {
    component_logger("limits")->warn("shared login counts {}: {}", what, error);
}

}  // namespace

LoginLimiter::LoginLimiter(LoginPolicy policy, std::function<Clock::time_point()> now)
    : policy_(policy), now_(std::move(now)) {}

bool LoginLimiter::refused(const LoginPolicy& policy, std::int64_t address_failures,
                           std::int64_t account_failures) {
    return address_failures >= policy.failures_per_address ||
           (address_failures > 0 && account_failures >= policy.failures_per_account);
}

std::size_t LoginLimiter::recent(Times& times, Clock::time_point now, std::chrono::seconds window) {
    while (!times.empty() && now - times.front() >= window) {
        times.pop_front();
    }
    return times.size();
}

std::size_t LoginLimiter::recent_in(std::map<std::string, Times, std::less<>>& map,
                                    std::string_view key, Clock::time_point now,
                                    std::chrono::seconds window) {
    auto it = map.find(key);
    return it == map.end() ? 0 : recent(it->second, now, window);
}

void LoginLimiter::share(std::shared_ptr<cluster::SharedCounters> counters) {
    shared_ = std::move(counters);
}

bool LoginLimiter::shared_allows(std::string_view ip, std::string_view account_key) {
    if (!shared_) {
        return true;
    }
    if (!account_key.empty()) {
        auto by_address = shared_->count("login-pair:" + pair_key(account_key, ip));
        if (!by_address) {
            warn_unshared("unreadable", by_address.error());
            return true;
        }
        // The account's count matters only to an address that has failed on it.
        if (*by_address > 0) {
            auto by_account = shared_->count("login-account:" + std::string(account_key));
            if (!by_account) {
                warn_unshared("unreadable", by_account.error());
                return true;
            }
            if (refused(policy_, *by_address, *by_account)) {
                return false;
            }
        }
    }
    auto attempts = shared_->add("login-ip:" + std::string(ip), policy_.ip_window);
    if (!attempts) {
        warn_unshared("unreadable", attempts.error());
        return true;
    }
    return *attempts <= policy_.attempts_per_ip;
}

bool LoginLimiter::try_attempt(std::string_view ip, std::string_view account_key) {
    {
        std::lock_guard lock(mutex_);
        if (recent_in(ips_, ip, now_(), policy_.ip_window) >=
            static_cast<std::size_t>(policy_.attempts_per_ip)) {
            return false;
        }
    }
    // Outside the lock: a round trip to Redis in cluster mode.
    if (!shared_allows(ip, account_key)) {
        return false;
    }
    std::lock_guard lock(mutex_);
    const auto now = now_();
    sweep(now);
    auto& by_ip = ips_[std::string(ip)];
    if (recent(by_ip, now, policy_.ip_window) >=
        static_cast<std::size_t>(policy_.attempts_per_ip)) {
        return false;
    }
    if (!account_key.empty()) {
        const auto by_address =
            recent_in(pairs_, pair_key(account_key, ip), now, policy_.account_window);
        const auto by_account = recent_in(accounts_, account_key, now, policy_.account_window);
        if (refused(policy_, static_cast<std::int64_t>(by_address),
                    static_cast<std::int64_t>(by_account))) {
            return false;
        }
    }
    by_ip.push_back(now);
    return true;
}

void LoginLimiter::failed(std::string_view ip, std::string_view account_key) {
    if (account_key.empty()) {
        return;
    }
    const auto pair = pair_key(account_key, ip);
    if (shared_) {
        for (const auto& key :
             {"login-pair:" + pair, "login-account:" + std::string(account_key)}) {
            if (auto counted = shared_->add(key, policy_.account_window); !counted) {
                warn_unshared("not counted", counted.error());
            }
        }
    }
    std::lock_guard lock(mutex_);
    const auto now = now_();
    pairs_[pair].push_back(now);
    accounts_[std::string(account_key)].push_back(now);
}

void LoginLimiter::succeeded(std::string_view ip, std::string_view account_key) {
    const auto pair = pair_key(account_key, ip);
    if (shared_) {
        if (auto reset = shared_->reset("login-pair:" + pair); !reset) {
            warn_unshared("not reset", reset.error());
        }
    }
    std::lock_guard lock(mutex_);
    if (auto it = pairs_.find(pair); it != pairs_.end()) {
        pairs_.erase(it);
    }
}

void LoginLimiter::sweep(Clock::time_point now) {
    if (++calls_ % login_sweep_every != 0) {
        return;
    }
    for (auto* map : {&ips_, &pairs_, &accounts_}) {
        const auto window = map == &ips_ ? policy_.ip_window : policy_.account_window;
        for (auto it = map->begin(); it != map->end();) {
            it = recent(it->second, now, window) == 0 ? map->erase(it) : std::next(it);
        }
    }
}

}  // namespace server
