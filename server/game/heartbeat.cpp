#include "server/game/heartbeat.h"

#include <algorithm>

#include "server/log.h"

namespace server {

std::optional<std::chrono::milliseconds> NodeOutages::look(
    std::chrono::steady_clock::time_point steady, ServerTime now) {
    std::lock_guard lock(mutex_);
    if (!watching_) {
        return std::nullopt;
    }
    const auto last_steady = last_steady_.value_or(steady);
    const auto last_now = last_steady_ ? last_now_ : now;
    if (steady < last_steady) {
        return std::nullopt;  // a look that read the clocks before the newest one
    }
    last_steady_ = steady;
    last_now_ = std::max(last_now, now);
    // The process ran until at least one tick after the last look (the watchdog slept then).
    const auto late =
        std::min(std::chrono::duration_cast<std::chrono::milliseconds>(steady - last_steady),
                 std::chrono::duration_cast<std::chrono::milliseconds>(now - last_now));
    if (late <= watchdog_tick + pause_threshold) {
        return std::nullopt;
    }
    const auto pause = late - watchdog_tick;
    pauses_ = pauses_.with_gap(now - pause, now);
    ++pause_count_;
    return pause;
}

void NodeOutages::set_watching(bool watching) {
    std::lock_guard lock(mutex_);
    watching_ = watching;
    last_steady_.reset();
}

void NodeOutages::record_pause(ServerTime down, ServerTime up) {
    std::lock_guard lock(mutex_);
    pauses_ = pauses_.with_gap(down, up);
    ++pause_count_;
}

Downtime NodeOutages::pauses() const {
    std::lock_guard lock(mutex_);
    return pauses_;
}

std::uint64_t NodeOutages::pause_count() const {
    std::lock_guard lock(mutex_);
    return pause_count_;
}

void NodeOutages::store_worked(ServerTime at) {
    std::lock_guard lock(mutex_);
    if (!landed_.empty() && at <= landed_.back()) {
        return;
    }
    landed_.push_back(at);
    if (landed_.size() > landed_kept) {
        landed_.pop_front();
    }
}

std::optional<ServerTime> NodeOutages::store_worked_after(ServerTime after) const {
    std::lock_guard lock(mutex_);
    const auto found = std::upper_bound(landed_.begin(), landed_.end(), after);
    if (found == landed_.end()) {
        return std::nullopt;
    }
    return *found;
}

void NodeOutages::stopped(const std::string& game_id, ServerTime since, std::int64_t version,
                          std::int64_t fence) {
    std::lock_guard lock(mutex_);
    if (stopped_.size() >= stopped_kept && !stopped_.count(game_id)) {
        stopped_.erase(stopped_.begin());
    }
    stopped_[game_id] = Stopped{since, version, fence};
}

std::optional<ServerTime> NodeOutages::take_stopped(const std::string& game_id,
                                                    std::int64_t version, std::int64_t fence) {
    std::lock_guard lock(mutex_);
    const auto found = stopped_.find(game_id);
    if (found == stopped_.end()) {
        return std::nullopt;
    }
    const auto stopped = found->second;
    stopped_.erase(found);
    if (stopped.version != version || stopped.fence != fence) {
        return std::nullopt;
    }
    return stopped.since;
}

Heartbeat::Heartbeat(boost::asio::io_context& io, Store& store, const TimeSource& time)
    : timer_(io), store_(store), time_(time) {
    landing_->heartbeat = this;
}

Heartbeat::~Heartbeat() {
    stop_watching();
    std::lock_guard lock(landing_->mutex);
    landing_->heartbeat = nullptr;
}

core::Expected<Downtime> Heartbeat::start() {
    auto runs = store_.server_runs();
    if (!runs) {
        return core::make_error("cannot read the server's earlier runs: " + runs.error());
    }
    const auto now = time_.now();
    auto downtime = Downtime::from_runs(*runs, now);
    const auto started_at = unix_ms(now);
    started_at_ = started_at;
    if (auto recorded = store_.commit_sync({RecordRun{{started_at, started_at}}}); !recorded) {
        return core::make_error("cannot record the server's start: " + recorded.error());
    }
    beat();
    if (!watchdog_.joinable()) {
        {
            std::lock_guard lock(watch_mutex_);
            stop_watch_ = false;
        }
        outages_.set_watching(true);
        outages_.look(std::chrono::steady_clock::now(), time_.now());
        watchdog_ = std::thread([this] { watch(); });
    }
    return downtime;
}

void Heartbeat::watch() {
    std::unique_lock lock(watch_mutex_);
    while (!watch_wake_.wait_for(lock, watchdog_tick, [this] { return stop_watch_; })) {
        lock.unlock();
        const auto steady = std::chrono::steady_clock::now();
        const auto now = time_.now();
        if (const auto pause = outages_.look(steady, now)) {
            component_logger("server")->warn(
                "this process did not run for {} ms (paused or starved): the games' clocks are "
                "not charged for it",
                pause->count());
        }
        lock.lock();
    }
}

void Heartbeat::stop_watching() {
    {
        std::lock_guard lock(watch_mutex_);
        stop_watch_ = true;
    }
    watch_wake_.notify_all();
    if (watchdog_.joinable()) {
        watchdog_.join();
    }
    outages_.set_watching(false);
}

void Heartbeat::beat() {
    timer_.expires_after(heartbeat_interval);
    timer_.async_wait([this](const boost::system::error_code& ec) {
        const auto started_at = started_at_.load();
        if (ec || started_at == 0) {
            return;
        }
        store_.commit({RecordRun{{started_at, unix_ms(time_.now())}}}, [landing = landing_](
                                                                           core::Status status) {
            if (!status) {
                component_logger("server")->warn("heartbeat not stored: {}", status.error());
                return;
            }
            std::lock_guard lock(landing->mutex);
            if (auto* heartbeat = landing->heartbeat) {
                heartbeat->outages_.store_worked(heartbeat->time_.now());
            }
        });
        beat();
    });
}

void Heartbeat::stop() {
    stop_watching();
    const auto started_at = started_at_.exchange(0);
    if (started_at == 0) {
        return;
    }
    timer_.cancel();
    if (auto recorded = store_.commit_sync({RecordRun{{started_at, unix_ms(time_.now())}}});
        !recorded) {
        component_logger("server")->warn("last heartbeat not stored: {}", recorded.error());
    }
}

core::Status Heartbeat::beat_now() {
    const auto started_at = started_at_.load();
    if (started_at == 0) {
        return core::make_error("the heartbeat is not running");
    }
    auto status = store_.commit_sync({RecordRun{{started_at, unix_ms(time_.now())}}});
    if (status) {
        outages_.store_worked(time_.now());
    }
    return status;
}

}  // namespace server
