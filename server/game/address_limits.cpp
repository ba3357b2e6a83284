#include "server/game/address_limits.h"

#include <algorithm>
#include <utility>

#include "server/cluster/shared_counters.h"
#include "server/log.h"

namespace server {

namespace {

constexpr std::chrono::seconds guest_window{3600};
constexpr std::size_t address_sweep_every = 1024;

}  // namespace

AddressLimits::AddressLimits(const Limits& limits, std::function<Clock::time_point()> now)
    : limits_(limits), now_(std::move(now)) {}

std::variant<AddressLimits::Slot, AddressLimits::Refusal> AddressLimits::open_connection(
    const std::string& ip) {
    auto connections = connections_;
    std::lock_guard lock(connections->mutex);
    if (connections->total >= limits_.connections_total) {
        return Refusal{503, "the server is full; try again later"};
    }
    int& mine = connections->per_ip[ip];
    if (mine >= limits_.connections_per_ip) {
        if (mine == 0) {
            connections->per_ip.erase(ip);
        }
        return Refusal{429, "too many connections from your address (at most " +
                                std::to_string(limits_.connections_per_ip) + ")"};
    }
    ++mine;
    ++connections->total;
    // The slot holds the counts alive; destroying it gives the connection back.
    return Slot(static_cast<void*>(nullptr), [connections, ip](void*) {
        std::lock_guard lock(connections->mutex);
        if (auto it = connections->per_ip.find(ip); it != connections->per_ip.end()) {
            if (--it->second <= 0) {
                connections->per_ip.erase(it);
            }
        }
        --connections->total;
    });
}

int AddressLimits::connections_of(std::string_view ip) {
    std::lock_guard lock(connections_->mutex);
    auto it = connections_->per_ip.find(ip);
    return it == connections_->per_ip.end() ? 0 : it->second;
}

int AddressLimits::connections() {
    std::lock_guard lock(connections_->mutex);
    return connections_->total;
}

std::size_t AddressLimits::addresses_tracked() {
    std::lock_guard lock(mutex_);
    return guests_.size() + chat_.size() + http_.size();
}

bool AddressLimits::try_new_guest(std::string_view ip) {
    return take(guests_, ip, limits_.guests_per_ip_per_hour, guest_window) &&
           shared_take("guests:" + std::string(ip), limits_.guests_per_ip_per_hour, guest_window);
}

bool AddressLimits::try_chat(std::string_view ip) {
    return take(chat_, ip, limits_.chat_per_ip, chat_window) &&
           shared_take("chat:" + std::string(ip), limits_.chat_per_ip, chat_window);
}

void AddressLimits::share(std::shared_ptr<cluster::SharedCounters> counters) {
    shared_ = std::move(counters);
}

bool AddressLimits::shared_take(const std::string& key, int most, std::chrono::seconds window) {
    if (!shared_) {
        return true;
    }
    auto count = shared_->add(key, window);
    if (!count) {
        component_logger("limits")->warn("shared count {} unreadable: {}", key, count.error());
        return true;
    }
    return *count <= most;
}

bool AddressLimits::try_http(std::string_view ip) {
    std::lock_guard lock(mutex_);
    const auto now = now_();
    sweep(now);
    const auto rate = static_cast<double>(limits_.http_per_ip);
    auto it = http_.find(ip);
    if (it == http_.end()) {
        it = http_.emplace(std::string(ip), Bucket{2.0 * rate, now}).first;
    }
    Bucket& bucket = it->second;
    const std::chrono::duration<double> elapsed = now - bucket.refilled;
    bucket.refilled = now;
    bucket.tokens = std::min(2.0 * rate, bucket.tokens + elapsed.count() * rate);
    if (bucket.tokens < 1.0) {
        return false;
    }
    bucket.tokens -= 1.0;
    return true;
}

bool AddressLimits::take(std::map<std::string, Times, std::less<>>& times, std::string_view ip,
                         int most, std::chrono::seconds window) {
    std::lock_guard lock(mutex_);
    const auto now = now_();
    sweep(now);
    auto it = times.find(ip);
    if (it == times.end()) {
        it = times.emplace(std::string(ip), Times{}).first;
    }
    Times& recent = it->second;
    while (!recent.empty() && now - recent.front() >= window) {
        recent.pop_front();
    }
    if (static_cast<int>(recent.size()) >= most) {
        return false;
    }
    recent.push_back(now);
    return true;
}

void AddressLimits::sweep(Clock::time_point now) {
    if (++calls_ % address_sweep_every != 0) {
        return;
    }
    const auto forget = [&](std::map<std::string, Times, std::less<>>& times,
                            std::chrono::seconds window) {
        for (auto it = times.begin(); it != times.end();) {
            if (it->second.empty() || now - it->second.back() >= window) {
                it = times.erase(it);
            } else {
                ++it;
            }
        }
    };
    forget(guests_, guest_window);
    forget(chat_, chat_window);
    for (auto it = http_.begin(); it != http_.end();) {
        // A bucket idle for two seconds is full again: the same as no bucket.
        if (now - it->second.refilled >= std::chrono::seconds(2)) {
            it = http_.erase(it);
        } else {
            ++it;
        }
    }
}

}  // namespace server
