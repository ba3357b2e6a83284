#include "server/analysis/analyses.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>

#include "server/analysis/analysis_input.h"
#include "server/analysis/analysis_run.h"
#include "server/log.h"

namespace server {

namespace {

std::int64_t seconds_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

AnalysisRefusal unreadable(std::string_view what, const std::string& error) {
    component_logger("analysis")->error("cannot read {}: {}", what, error);
    return {500, "internal_error",
            "the server could not read " + std::string(what) + "; try again"};
}

}  // namespace

std::string_view analysis_state_name(AnalysisState state) {
    switch (state) {
        case AnalysisState::queued:
            return "queued";
        case AnalysisState::running:
            return "running";
        case AnalysisState::done:
            break;
    }
    return "done";
}

struct Analyses::Shared : std::enable_shared_from_this<Shared> {
    struct Entry {
        std::shared_ptr<AnalysisRun> run;
        std::string player_id;  // "" for nobody known (and after a restart)
        std::string address;
    };

    Shared(Store& s, BotPool& p, const Limits& l) : store(s), pool(p), limits(l) {}

    Store& store;
    BotPool& pool;
    const Limits limits;
    mutable std::mutex mutex;  // guards `entries`
    std::map<std::string, Entry, std::less<>> entries;

    static AnalysisStatus status_of(const AnalysisRun& run) {
        return {run.started() ? AnalysisState::running : AnalysisState::queued,
                run.positions_done(), run.positions_total()};
    }

    // With the lock held: why `player_id` from `address` may not queue one more, if so.
    std::optional<AnalysisRefusal> over_limits(const std::string& player_id,
                                               const std::string& address) const {
        if (entries.size() >= static_cast<std::size_t>(std::max(0, limits.analysis_queue))) {
            return AnalysisRefusal{429, "analysis_queue_full",
                                   "the server is analysing as many games as it can; try again "
                                   "in a few minutes"};
        }
        const auto count = [&](auto member, const std::string& value) {
            return std::count_if(entries.begin(), entries.end(),
                                 [&](const auto& kv) { return kv.second.*member == value; });
        };
        if ((!player_id.empty() &&
             count(&Entry::player_id, player_id) >= limits.analyses_per_player) ||
            (!address.empty() && count(&Entry::address, address) >= limits.analyses_per_ip)) {
            return AnalysisRefusal{429, "too_many_analyses",
                                   "you have as many analyses waiting as you may; ask again once "
                                   "one of them is done"};
        }
        return std::nullopt;
    }

    // A run for `input` whose answer is stored and then forgotten here.
    std::shared_ptr<AnalysisRun> make_run(AnalysisInput input) {
        const std::string game_id = input.game_id;
        return std::make_shared<AnalysisRun>(
            std::move(input),
            limits.analysis_nodes > 0 ? limits.analysis_nodes
                                      : core::engine::default_analysis_nodes,
            [weak = weak_from_this(), game_id](core::Expected<std::string> answer) {
                if (auto self = weak.lock()) {
                    self->finished(game_id, std::move(answer));
                }
            });
    }

    // On a bot thread: stores the answer (or that there is none), then forgets the analysis.
    void finished(const std::string& game_id, core::Expected<std::string> answer) {
        AnalysisRecord record{game_id, "done", "", seconds_now()};
        if (answer) {
            record.json = std::move(*answer);
            component_logger("analysis")->info("game {}: analysed", game_id);
        } else {
            record.status = "failed";
            component_logger("analysis")
                ->error("game {}: the analysis failed: {}", game_id, answer.error());
        }
        store.commit({SaveAnalysis{std::move(record)}}, [weak = weak_from_this(),
                                                         game_id](core::Status stored) {
            if (!stored) {
                component_logger("analysis")
                    ->error("game {}: cannot store the analysis: {}", game_id, stored.error());
            }
            if (auto self = weak.lock()) {
                std::lock_guard lock(self->mutex);
                self->entries.erase(game_id);
            }
        });
    }

    void forget(const std::string& game_id) {
        std::lock_guard lock(mutex);
        entries.erase(game_id);
    }
};

Analyses::Analyses(Store& store, BotPool& pool, const Limits& limits)
    : shared_(std::make_shared<Shared>(store, pool, limits)) {}

std::optional<AnalysisStatus> Analyses::progress(std::string_view game_id) const {
    std::lock_guard lock(shared_->mutex);
    const auto it = shared_->entries.find(game_id);
    if (it == shared_->entries.end()) {
        return std::nullopt;
    }
    return Shared::status_of(*it->second.run);
}

std::size_t Analyses::active() const {
    std::lock_guard lock(shared_->mutex);
    return shared_->entries.size();
}

std::variant<AnalysisStatus, AnalysisRefusal> Analyses::request(const GameRecord& game,
                                                                const std::string& player_id,
                                                                const std::string& address) {
    if (auto known = progress(game.id)) {
        return *known;
    }
    Store& store = shared_->store;
    const auto is_done = [&]() -> core::Expected<bool> {
        auto stored = store.analysis(game.id);
        if (!stored) {
            return core::make_error(stored.error());
        }
        return *stored && (*stored)->status == "done";
    };
    const auto done_before = is_done();
    if (!done_before) {
        return unreadable("the analysis", done_before.error());
    }
    if (*done_before) {
        return AnalysisStatus{AnalysisState::done};
    }
    const auto events = store.events(game.id);
    if (!events) {
        return unreadable("the game", events.error());
    }
    auto input = analysis_input(game, *events);
    if (!input) {
        component_logger("analysis")->error("cannot replay game {}: {}", game.id, input.error());
        return AnalysisRefusal{500, "internal_error", "the server could not replay this game"};
    }
    auto run = shared_->make_run(std::move(*input));
    {
        std::lock_guard lock(shared_->mutex);
        if (const auto it = shared_->entries.find(game.id); it != shared_->entries.end()) {
            return Shared::status_of(*it->second.run);  // asked for meanwhile
        }
        if (auto refused = shared_->over_limits(player_id, address)) {
            return *refused;
        }
        shared_->entries.emplace(game.id, Shared::Entry{run, player_id, address});
    }
    // An analysis that ended between the first look and the entry is stored as done by now.
    const auto done_meanwhile = is_done();
    if (!done_meanwhile || *done_meanwhile) {
        shared_->forget(game.id);
        if (!done_meanwhile) {
            return unreadable("the analysis", done_meanwhile.error());
        }
        return AnalysisStatus{AnalysisState::done};
    }
    store.commit({SaveAnalysis{{game.id, "queued", "", seconds_now()}}},
                 [game_id = game.id](core::Status stored) {
                     if (!stored) {
                         component_logger("analysis")
                             ->warn(
                                 "game {}: cannot store that its analysis is queued (a restart "
                                 "would forget it): {}",
                                 game_id, stored.error());
                     }
                 });
    if (!shared_->pool.submit_background(run)) {
        shared_->forget(game.id);
        return AnalysisRefusal{503, "server_restarting",
                               "the server is restarting; ask again in a moment"};
    }
    return Shared::status_of(*run);
}

core::Status Analyses::restore() {
    Store& store = shared_->store;
    auto queued = store.queued_analyses();
    if (!queued) {
        return core::make_error("cannot read the queued analyses: " + queued.error());
    }
    auto log = component_logger("analysis");
    for (const auto& row : *queued) {
        auto game = store.game(row.game_id);
        if (!game) {
            return core::make_error("cannot read game " + row.game_id + ": " + game.error());
        }
        auto events = store.events(row.game_id);
        if (!events) {
            return core::make_error("cannot read game " + row.game_id + ": " + events.error());
        }
        auto input = *game ? analysis_input(**game, *events)
                           : core::Expected<AnalysisInput>(core::Error{"no such game"});
        if (!input) {
            log->error("game {}: the analysis queued before the restart is dropped: {}",
                       row.game_id, input.error());
            store.commit({SaveAnalysis{{row.game_id, "failed", "", seconds_now()}}},
                         [](core::Status) {});
            continue;
        }
        auto run = shared_->make_run(std::move(*input));
        {
            std::lock_guard lock(shared_->mutex);
            shared_->entries.emplace(row.game_id, Shared::Entry{run, "", ""});
        }
        if (!shared_->pool.submit_background(run)) {
            shared_->forget(row.game_id);
            log->warn("game {}: no bot thread to analyse it (it stays queued for a later run)",
                      row.game_id);
            continue;
        }
        log->info("game {}: its analysis is queued again", row.game_id);
    }
    return core::ok_status();
}

}  // namespace server
