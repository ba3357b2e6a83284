#include "server/metrics/metrics.h"

#include <algorithm>
#include <cassert>

namespace server {

Histogram::Histogram(std::initializer_list<double> bounds)
    : bounds_(bounds), buckets_(bounds.size() + 1) {
    assert(std::is_sorted(bounds_.begin(), bounds_.end()));
}

void Histogram::observe(double value) {
    const auto bucket = static_cast<std::size_t>(
        std::lower_bound(bounds_.begin(), bounds_.end(), value) - bounds_.begin());
    buckets_[bucket].fetch_add(1, std::memory_order_relaxed);
    sum_.fetch_add(value, std::memory_order_relaxed);
}

Histogram::Snapshot Histogram::snapshot() const {
    Snapshot out;
    out.bounds = bounds_;
    std::uint64_t running = 0;
    for (const auto& bucket : buckets_) {
        running += bucket.load(std::memory_order_relaxed);
        out.cumulative.push_back(running);
    }
    out.count = running;
    out.sum = sum_.load(std::memory_order_relaxed);
    return out;
}

std::string_view refusal_name(Refusal reason) {
    switch (reason) {
        case Refusal::http_rate:
            return "http_rate";
        case Refusal::origin:
            return "origin";
        case Refusal::address_connections:
            return "address_connections";
        case Refusal::server_connections:
            return "server_connections";
        case Refusal::oversized_request:
            return "oversized_request";
        case Refusal::draining:
            return "draining";
    }
    return "unknown";
}

Metrics& metrics() {
    static Metrics registry;
    return registry;
}

}  // namespace server
