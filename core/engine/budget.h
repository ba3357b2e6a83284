#pragma once
// When a search must stop: a node limit (checked at every node, so a node-limited search is
// deterministic), a deadline and a stop flag (checked every few thousand nodes).
#include <atomic>
#include <chrono>
#include <cstdint>

namespace core::engine {

using Clock = std::chrono::steady_clock;

class Budget {
public:
    // max_nodes 0: no node limit; no deadline when `deadline` is nullopt-like (time_point::max()).
    Budget(std::uint64_t max_nodes, Clock::time_point deadline, const std::atomic<bool>* stop)
        : max_nodes_(max_nodes), deadline_(deadline), stop_(stop) {}

    // Counts one node; true once the search must unwind (and from then on).
    bool spend_node() {
        if (stopped_) {
            return true;
        }
        ++nodes_;
        if (max_nodes_ != 0 && nodes_ >= max_nodes_) {
            stopped_ = true;
        } else if ((nodes_ & check_interval_mask) == 0) {
            poll();
        }
        return stopped_;
    }
    // Looks at the clock and the stop flag now.
    bool poll() {
        if ((stop_ != nullptr && stop_->load(std::memory_order_relaxed)) ||
            Clock::now() >= deadline_) {
            stopped_ = true;
        }
        return stopped_;
    }
    bool stopped() const { return stopped_; }
    std::uint64_t nodes() const { return nodes_; }
    std::uint64_t max_nodes() const { return max_nodes_; }
    Clock::time_point deadline() const { return deadline_; }

private:
    static constexpr std::uint64_t check_interval_mask = 2047;
    std::uint64_t max_nodes_;
    Clock::time_point deadline_;
    const std::atomic<bool>* stop_;
    std::uint64_t nodes_ = 0;
    bool stopped_ = false;
};

}  // namespace core::engine
