#include "server/game/login_limiter.h"

#include "server/cluster/shared_counters.h"
#include "server/log.h"

namespace server {

namespace {

// Calls between two sweeps of expired keys.
constexpr std::size_t login_sweep_every = 1024;

}  // namespace

LoginLimiter::LoginLimiter(LoginPolicy policy, std::function<Clock::time_point()> now)
    : policy_(policy), now_(std::move(now)) {}

std::size_t LoginLimiter::recent(Times& times, Clock::time_point now, std::chrono::seconds window) {
    while (!times.empty() && now - times.front() >= window) {
        times.pop_front();
    }
    return times.size();
}

void LoginLimiter::share(std::shared_ptr<cluster::SharedCounters> counters) {
    shared_ = std::move(counters);
}

bool LoginLimiter::shared_allows(std::string_view ip, std::string_view account_key) {
    if (!shared_) {
        return true;
    }
    const auto account = "login-account:" + std::string(account_key);
    if (!account_key.empty()) {
        auto failures = shared_->count(account);
        if (!failures) {
            component_logger("limits")->warn("shared login counts unreadable: {}",
                                             failures.error());
            return true;
        }
        if (*failures >= policy_.failures_per_account) {
            return false;
        }
    }
    auto attempts = shared_->add("login-ip:" + std::string(ip), policy_.ip_window);
    if (!attempts) {
        component_logger("limits")->warn("shared login counts unreadable: {}", attempts.error());
        return true;
    }
    return *attempts <= policy_.attempts_per_ip;
}

bool LoginLimiter::try_attempt(std::string_view ip, std::string_view account_key) {
    {
        std::lock_guard lock(mutex_);
        const auto now = now_();
        auto it = ips_.find(ip);
        if (it != ips_.end() && recent(it->second, now, policy_.ip_window) >=
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
        auto it = accounts_.find(account_key);
        if (it != accounts_.end() && recent(it->second, now, policy_.account_window) >=
                                         static_cast<std::size_t>(policy_.failures_per_account)) {
            return false;
        }
    }
    by_ip.push_back(now);
    return true;
}

void LoginLimiter::failed(std::string_view account_key) {
    if (account_key.empty()) {
        return;
    }
    if (shared_) {
        if (auto counted =
                shared_->add("login-account:" + std::string(account_key), policy_.account_window);
            !counted) {
            component_logger("limits")->warn("shared login failure not counted: {}",
                                             counted.error());
        }
    }
    std::lock_guard lock(mutex_);
    accounts_[std::string(account_key)].push_back(now_());
}

void LoginLimiter::succeeded(std::string_view account_key) {
    if (shared_) {
        if (auto reset = shared_->reset("login-account:" + std::string(account_key)); !reset) {
            component_logger("limits")->warn("shared login failures not reset: {}", reset.error());
        }
    }
    std::lock_guard lock(mutex_);
    if (auto it = accounts_.find(account_key); it != accounts_.end()) {
        accounts_.erase(it);
    }
}

void LoginLimiter::sweep(Clock::time_point now) {
    if (++calls_ % login_sweep_every != 0) {
        return;
    }
    for (auto* map : {&ips_, &accounts_}) {
        const auto window = map == &ips_ ? policy_.ip_window : policy_.account_window;
        for (auto it = map->begin(); it != map->end();) {
            it = recent(it->second, now, window) == 0 ? map->erase(it) : std::next(it);
        }
    }
}

}  // namespace server
