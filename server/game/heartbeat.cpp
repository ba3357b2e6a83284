#include "server/game/heartbeat.h"

#include "server/log.h"

namespace server {

Heartbeat::Heartbeat(boost::asio::io_context& io, Store& store, const TimeSource& time)
    : timer_(io), store_(store), time_(time) {}

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
    return downtime;
}

void Heartbeat::beat() {
    timer_.expires_after(heartbeat_interval);
    timer_.async_wait([this](const boost::system::error_code& ec) {
        const auto started_at = started_at_.load();
        if (ec || started_at == 0) {
            return;
        }
        store_.commit({RecordRun{{started_at, unix_ms(time_.now())}}}, [](core::Status status) {
            if (!status) {
                component_logger("server")->warn("heartbeat not stored: {}", status.error());
            }
        });
        beat();
    });
}

void Heartbeat::stop() {
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
    return store_.commit_sync({RecordRun{{started_at, unix_ms(time_.now())}}});
}

}  // namespace server
