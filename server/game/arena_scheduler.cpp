#include "server/game/arena_scheduler.h"

#include <set>
#include <string>

#include "server/game/server_state.h"
#include "server/game/tournaments.h"
#include "server/log.h"

namespace server {

ArenaScheduler::ArenaScheduler(ServerState& state, tournament::ArenaSchedule schedule)
    : state_(state),
      schedule_(std::move(schedule)),
      strand_(boost::asio::make_strand(state.io())),
      timer_(strand_) {}

void ArenaScheduler::start() {
    const auto& log = component_logger("schedule");
    if (state_.leases()) {
        log->info("scheduled tournaments are off in cluster mode (issue 43, slice 5)");
        return;
    }
    if (schedule_.empty()) {
        log->info("no scheduled tournaments: the schedule is empty");
        return;
    }
    log->info("{} scheduled arena(s): a pass every {} s", schedule_.size(),
              scheduler_interval.count());
    {
        std::lock_guard lock(listener_mutex_);
        if (stopped_.load()) {
            return;
        }
        time_listener_ = state_.time_source().on_jump([weak = weak_from_this()] {
            if (auto self = weak.lock()) {
                self->pass_soon();
            }
        });
    }
    pass_soon();
    boost::asio::post(strand_, [self = shared_from_this()] { self->arm(); });
}

void ArenaScheduler::stop() {
    stopped_ = true;
    {
        std::lock_guard lock(listener_mutex_);
        if (time_listener_ != 0) {
            state_.time_source().forget(time_listener_);
            time_listener_ = 0;
        }
    }
    boost::asio::post(strand_, [self = shared_from_this()] { self->timer_.cancel(); });
}

void ArenaScheduler::arm() {
    if (stopped_.load()) {
        return;
    }
    timer_.expires_after(scheduler_interval);
    timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
        if (ec || self->stopped_.load()) {
            return;
        }
        self->pass_soon();
        self->arm();
    });
}

void ArenaScheduler::pass_soon() {
    if (stopped_.load() || queued_.exchange(true)) {
        return;
    }
    const bool handed = state_.blocking().run([self = shared_from_this()] {
        self->queued_ = false;
        if (self->stopped_.load()) {
            return;
        }
        if (auto passed = self->pass(); !passed) {
            component_logger("schedule")->error("{}", passed.error());
        }
    });
    if (!handed) {
        queued_ = false;  // a full pool: the next tick tries again
        component_logger("schedule")->warn("the blocking pool is full: scheduling pass skipped");
    }
}

core::Expected<std::vector<TournamentRecord>> ArenaScheduler::pass() {
    std::lock_guard lock(pass_mutex_);
    auto unfinished = state_.store().unfinished_tournaments();
    if (!unfinished) {
        return core::make_error("cannot read the tournaments to schedule arenas: " +
                                unfinished.error());
    }
    std::set<std::string> existing;
    for (const auto& record : *unfinished) {
        if (record.created_by.empty()) {
            existing.insert(tournament::schedule_key(record.name, record.starts_at));
        }
    }
    const auto& log = component_logger("schedule");
    std::vector<TournamentRecord> created;
    for (const auto& arena : tournament::due(schedule_, unix_ms(state_.time().now()), existing)) {
        if (stopped_.load()) {
            break;
        }
        ArenaCreation creation{arena.name, arena.config, ""};
        auto made = state_.tournaments().create_arena(creation, "", "");
        if (auto* refused = std::get_if<TournamentRefusal>(&made)) {
            log->error("cannot create the scheduled arena {}: {}", arena.key,
                       refused->error.message);
            continue;
        }
        const auto& record = std::get<TournamentRecord>(made);
        log->info("scheduled arena {} created: {}", arena.key, record.id);
        created.push_back(record);
    }
    return created;
}

}  // namespace server
