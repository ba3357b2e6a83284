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
    started_at_ = unix_ms(now);
    if (auto recorded = store_.commit_sync({RecordRun{{started_at_, started_at_}}}); !recorded) {
        return core::make_error("cannot record the server's start: " + recorded.error());
    }
    beat();
    return downtime;
}

void Heartbeat::beat() {
    timer_.expires_after(heartbeat_interval);
    timer_.async_wait([this](const boost::system::error_code& ec) {
        if (ec || started_at_ == 0) {
            return;
        }
        store_.commit({RecordRun{{started_at_, unix_ms(time_.now())}}}, [](core::Status status) {
            if (!status) {
                component_logger("server")->warn("heartbeat not stored: {}", status.error());
            }
        });
        beat();
    });
}

void Heartbeat::stop() {
    if (started_at_ == 0) {
        return;
    }
    timer_.cancel();
    if (auto recorded = store_.commit_sync({RecordRun{{started_at_, unix_ms(time_.now())}}});
        !recorded) {
        component_logger("server")->warn("last heartbeat not stored: {}", recorded.error());
    }
    started_at_ = 0;
}

}  // namespace server
