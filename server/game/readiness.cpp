#include "server/game/readiness.h"

#include <memory>
#include <utility>

#include "server/cluster/redis_client.h"
#include "server/guard.h"
#include "server/log.h"

namespace server {

namespace {

// The check's outcome, with an exception (a store whose commit throws) as its error.
core::Status attempt(const Readiness::Check& check) {
    try {
        return check();
    } catch (...) {
        return core::make_error(describe_exception(std::current_exception()));
    }
}

}  // namespace

Readiness::Readiness(Store& store, Check write) : store_(store), write_(std::move(write)) {}

Readiness::~Readiness() {
    stop();
}

void Readiness::watch_redis(Check ping) {
    ping_ = std::move(ping);
}

void Readiness::start() {
    std::lock_guard lock(mutex_);
    if (!thread_.joinable() && !stopping_) {
        thread_ = std::thread([this] { run(); });
    }
}

void Readiness::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) {
        thread_.join();
    }
}

Readiness::State Readiness::state() const {
    std::lock_guard lock(mutex_);
    auto stalled = stall();
    return stalled.ready() ? current() : stalled;
}

Readiness::State Readiness::stall() const {
    const auto stalled = store_.stalled_for();
    const bool now_stalled = stalled >= readiness_stall;
    if (now_stalled != stalled_) {
        stalled_ = now_stalled;
        const auto& log = component_logger("server");
        if (now_stalled) {
            log->warn(
                "not ready: store_unwritable: the store's writer has finished no commit "
                "for {} ms",
                stalled.count());
        } else {
            log->info("the store's writer finishes commits again");
        }
    }
    if (!now_stalled) {
        return {};
    }
    return {Status::store_unwritable, "the store's writer has finished no commit for " +
                                          std::to_string(stalled.count()) + " ms"};
}

Readiness::State Readiness::current() const {
    if (!written_) {
        return {Status::store_unwritable, written_.error()};
    }
    if (!read_) {
        return {Status::store_unreachable, read_.error()};
    }
    if (!pinged_) {
        return {Status::redis_unreachable, pinged_.error()};
    }
    return {};
}

void Readiness::run() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        lock.unlock();
        check(Clock::now());
        lock.lock();
        wake_.wait_for(lock, readiness_tick, [this] { return stopping_; });
    }
}

void Readiness::check(Clock::time_point now) {
    const auto failures = store_.commits_failed();
    bool unwritable = false;
    {
        std::lock_guard lock(mutex_);
        unwritable = !written_;
    }
    if (now >= next_write_ && (failures != failures_seen_ || unwritable)) {
        auto outcome = attempt(write_);
        failures_seen_ = store_.commits_failed();  // the write's own failure is no news
        next_write_ = now + readiness_interval;
        record(written_, std::move(outcome));
    }
    if (now >= next_read_) {
        record(read_, attempt([this] { return store_.check(); }));
        next_read_ = now + readiness_interval;
    }
    if (ping_ && now >= next_ping_) {
        record(pinged_, attempt(ping_));
        next_ping_ = now + readiness_interval;
    }
}

void Readiness::record(core::Status& slot, core::Status outcome) {
    std::lock_guard lock(mutex_);
    const auto before = current();
    slot = std::move(outcome);
    const auto after = current();
    if (after.status == before.status) {
        return;
    }
    const auto& log = component_logger("server");
    if (after.ready()) {
        log->info("ready again (was {})", name(before.status));
    } else {
        log->warn("not ready: {}: {}", name(after.status), after.error);
    }
}

std::string_view Readiness::name(Status status) {
    switch (status) {
        case Status::ready:
            return "ready";
        case Status::store_unwritable:
            return "store_unwritable";
        case Status::store_unreachable:
            return "store_unreachable";
        case Status::redis_unreachable:
            return "redis_unreachable";
    }
    return "unknown";
}

core::Expected<Readiness::Check> redis_ping(const std::string& url) {
    auto parsed = cluster::parse_redis_url(url);
    if (!parsed) {
        return core::make_error(parsed.error());
    }
    auto opened = cluster::RedisConnection::open(*parsed, readiness_redis_timeout);
    if (!opened) {
        return core::make_error(opened.error());
    }
    std::shared_ptr<cluster::RedisConnection> redis(std::move(*opened));
    return Readiness::Check([redis]() -> core::Status {
        auto reply = redis->command({"PING"});
        if (!reply) {
            return core::make_error(reply.error());
        }
        return core::ok_status();
    });
}

}  // namespace server
