#include "server/analysis/analyses.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>

#include "server/analysis/analysis_input.h"
#include "server/analysis/analysis_run.h"
#include "server/log.h"
#include "server/store/run_liveness.h"

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

// The status a claim shows: running once its run wrote that it analysed a position.
AnalysisStatus status_of_claim(const AnalysisRecord& claim) {
    return {claim.positions_done > 0 ? AnalysisState::running : AnalysisState::queued,
            static_cast<std::size_t>(std::max<std::int64_t>(0, claim.positions_done)),
            static_cast<std::size_t>(std::max<std::int64_t>(0, claim.positions_total))};
}

// Whether the queued `claim` is held by a live run other than `me`'s earlier ones: this run's
// own, or another node's run heard of lately. A claim of this node's earlier run is dead (a node
// runs one process at a time), and so is one of a run the store has not heard of for
// run_dead_after.
bool claim_alive(const AnalysisRecord& claim, const AnalysisClaimant& me) {
    if (claim.run == me.run && me.run != 0) {
        return true;
    }
    if (claim.node == me.node) {
        return false;
    }
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now().time_since_epoch());
    return run_alive(claim.run_alive_at, now.count());
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
        AnalysisClaimant claimant;  // whose claim it runs under
        std::chrono::steady_clock::time_point progress_written;
    };

    Shared(Store& s, BotPool& p, const Limits& l, std::function<AnalysisClaimant()> c)
        : store(s), pool(p), limits(l), claimant(std::move(c)) {}

    Store& store;
    BotPool& pool;
    const Limits limits;
    const std::function<AnalysisClaimant()> claimant;
    mutable std::mutex mutex;  // guards `entries`
    std::map<std::string, Entry, std::less<>> entries;

    AnalysisClaimant me() const { return claimant ? claimant() : AnalysisClaimant{}; }

    static AnalysisStatus status_of(const AnalysisRun& run) {
        return {run.started() ? AnalysisState::running : AnalysisState::queued,
                run.positions_done(), run.positions_total()};
    }

    std::optional<AnalysisStatus> progress(std::string_view game_id) const {
        std::lock_guard lock(mutex);
        const auto it = entries.find(game_id);
        if (it == entries.end()) {
            return std::nullopt;
        }
        return status_of(*it->second.run);
    }

    // With the lock held: why `player_id` from `address` may not queue one more, if so (only the
    // queue's size when `per_asker` is false: an analysis taken over has no asker here).
    std::optional<AnalysisRefusal> over_limits(const std::string& player_id,
                                               const std::string& address, bool per_asker) const {
        if (entries.size() >= static_cast<std::size_t>(std::max(0, limits.analysis_queue))) {
            return AnalysisRefusal{429, "analysis_queue_full",
                                   "the server is analysing as many games as it can; try again "
                                   "in a few minutes"};
        }
        if (!per_asker) {
            return std::nullopt;
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

    // A run for `input` whose progress goes to its claim and whose answer is stored and then
    // forgotten here.
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
            },
            [weak = weak_from_this(), game_id](std::size_t done, std::size_t total) {
                if (auto self = weak.lock()) {
                    self->analysed(game_id, done, total);
                }
            });
    }

    // On a bot thread, the run's lock held: writes the progress to the claim (its own: a claim
    // taken over meanwhile is left alone) if the last write is analysis_progress_interval old.
    void analysed(const std::string& game_id, std::size_t done, std::size_t total) {
        AnalysisClaimant claimant;
        {
            std::lock_guard lock(mutex);
            const auto it = entries.find(game_id);
            const auto now = std::chrono::steady_clock::now();
            if (it == entries.end() ||
                now - it->second.progress_written < analysis_progress_interval) {
                return;
            }
            it->second.progress_written = now;
            claimant = it->second.claimant;
        }
        store.commit({claim_write(game_id, claimant, done, total, claimant.run)},
                     [game_id](core::Status stored) {
                         if (!stored) {
                             component_logger("analysis")
                                 ->warn("game {}: cannot store the analysis's progress: {}",
                                        game_id, stored.error());
                         }
                     });
    }

    static WriteOp claim_write(const std::string& game_id, const AnalysisClaimant& claimant,
                               std::size_t done, std::size_t total, std::int64_t taken_from) {
        AnalysisRecord claim{game_id, "queued", "", seconds_now()};
        claim.node = claimant.node;
        claim.run = claimant.run;
        claim.positions_done = static_cast<std::int64_t>(done);
        claim.positions_total = static_cast<std::int64_t>(total);
        return SaveAnalysis{std::move(claim), taken_from};
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

    // Claims the analysis of `input` for this run — over the claim of run `taken_from`, if that
    // is the one stored — and starts it here; or, when another run's claim won, what that claim
    // says (nothing starts here). The limits of `player_id` and `address` apply when `per_asker`.
    std::variant<AnalysisStatus, AnalysisRefusal> claim_and_start(AnalysisInput input,
                                                                  const std::string& player_id,
                                                                  const std::string& address,
                                                                  std::int64_t taken_from,
                                                                  bool per_asker) {
        const std::string game_id = input.game_id;
        const auto claimant = me();
        auto run = make_run(std::move(input));
        {
            std::lock_guard lock(mutex);
            if (const auto it = entries.find(game_id); it != entries.end()) {
                return status_of(*it->second.run);  // asked for meanwhile
            }
            if (auto refused = over_limits(player_id, address, per_asker)) {
                return *refused;
            }
            entries.emplace(game_id, Entry{run, player_id, address, claimant,
                                           std::chrono::steady_clock::now()});
        }
        // One SQL statement decides between nodes claiming at once; the claim read back says who
        // won (a claim is never written over a done analysis, so one done meanwhile shows too).
        if (auto claimed = store.commit_sync(
                {claim_write(game_id, claimant, 0, run->positions_total(), taken_from)});
            !claimed) {
            forget(game_id);
            component_logger("analysis")
                ->error("game {}: cannot claim its analysis: {}", game_id, claimed.error());
            return AnalysisRefusal{500, "internal_error",
                                   "the server could not store the analysis; try again"};
        }
        const auto held = store.analysis(game_id);
        if (!held || !*held || (*held)->status != "queued" || (*held)->run != claimant.run) {
            forget(game_id);
            if (!held) {
                return unreadable("the analysis", held.error());
            }
            if (*held && (*held)->status == "done") {
                return AnalysisStatus{AnalysisState::done};
            }
            if (*held && (*held)->status == "queued") {
                return status_of_claim(**held);  // another node's run won
            }
            return unreadable("the analysis", "its claim is gone");
        }
        if (!pool.submit_background(run)) {
            forget(game_id);
            return AnalysisRefusal{503, "server_restarting",
                                   "the server is restarting; ask again in a moment"};
        }
        return status_of(*run);
    }

    // What is known of an analysis: its status if it runs here or under another live run's
    // claim; else the stored row, and whether this node may claim it (no analysis, a failed one,
    // or a claim of a dead run — or of this run, left without a run — over run `taken_from`).
    struct Seen {
        std::optional<AnalysisRecord> stored;
        std::optional<AnalysisStatus> status;  // here, or another live run's claim
        bool claimable = false;                // no analysis, a failed one, or a dead claim
        std::int64_t taken_from = 0;
    };
    core::Expected<Seen> see(std::string_view game_id) {
        Seen seen;
        if ((seen.status = progress(game_id))) {
            return seen;
        }
        auto stored = store.analysis(game_id);
        if (!stored) {
            return core::make_error(stored.error());
        }
        seen.stored = std::move(*stored);
        if (!seen.stored || seen.stored->status == "failed") {
            seen.claimable = true;
            return seen;
        }
        if (seen.stored->status != "queued") {
            return seen;  // done
        }
        const auto claimant = me();
        if (claim_alive(*seen.stored, claimant)) {
            if (seen.stored->run != claimant.run) {
                seen.status = status_of_claim(*seen.stored);
                return seen;
            }
            // This run's claim: running here, unless its run ended without storing its answer.
            if ((seen.status = progress(game_id))) {
                return seen;
            }
        }
        seen.claimable = true;
        seen.taken_from = seen.stored->run;
        return seen;
    }

    // The game's analysis input, or why there is none.
    core::Expected<AnalysisInput> input_of(const GameRecord& game) {
        const auto events = store.events(game.id);
        if (!events) {
            return core::make_error("cannot read game " + game.id + ": " + events.error());
        }
        return analysis_input(game, *events);
    }
};

Analyses::Analyses(Store& store, BotPool& pool, const Limits& limits,
                   std::function<AnalysisClaimant()> claimant)
    : shared_(std::make_shared<Shared>(store, pool, limits, std::move(claimant))) {}

std::optional<AnalysisStatus> Analyses::progress(std::string_view game_id) const {
    return shared_->progress(game_id);
}

std::size_t Analyses::active() const {
    std::lock_guard lock(shared_->mutex);
    return shared_->entries.size();
}

std::variant<AnalysisLook, AnalysisRefusal> Analyses::look(const GameRecord& game) {
    auto seen = shared_->see(game.id);
    if (!seen) {
        return unreadable("the analysis", seen.error());
    }
    if (seen->status) {
        return AnalysisLook{seen->status, ""};
    }
    if (seen->stored && seen->stored->status == "done") {
        return AnalysisLook{AnalysisStatus{AnalysisState::done}, seen->stored->json};
    }
    if (!seen->stored || seen->stored->status != "queued") {
        return AnalysisLook{};  // never asked for, or given up
    }
    // A dead run's claim: taken over here, so the analysis asked for is not lost.
    const auto orphaned = status_of_claim(*seen->stored);
    auto input = shared_->input_of(game);
    if (!input) {
        component_logger("analysis")->error("cannot replay game {}: {}", game.id, input.error());
        return AnalysisLook{orphaned, ""};
    }
    auto taken = shared_->claim_and_start(std::move(*input), "", "", seen->taken_from, false);
    if (const auto* status = std::get_if<AnalysisStatus>(&taken)) {
        component_logger("analysis")
            ->info("game {}: the analysis of a run that is gone is taken over", game.id);
        return AnalysisLook{*status, ""};
    }
    return AnalysisLook{orphaned, ""};  // not taken here now (a full queue): as it stands
}

std::variant<AnalysisStatus, AnalysisRefusal> Analyses::request(const GameRecord& game,
                                                                const std::string& player_id,
                                                                const std::string& address) {
    auto seen = shared_->see(game.id);
    if (!seen) {
        return unreadable("the analysis", seen.error());
    }
    if (seen->status) {
        return *seen->status;
    }
    if (!seen->claimable) {
        return AnalysisStatus{AnalysisState::done};
    }
    auto input = shared_->input_of(game);
    if (!input) {
        component_logger("analysis")->error("cannot replay game {}: {}", game.id, input.error());
        return AnalysisRefusal{500, "internal_error", "the server could not replay this game"};
    }
    return shared_->claim_and_start(std::move(*input), player_id, address, seen->taken_from, true);
}

core::Status Analyses::restore() {
    Store& store = shared_->store;
    auto queued = store.queued_analyses();
    if (!queued) {
        return core::make_error("cannot read the queued analyses: " + queued.error());
    }
    auto log = component_logger("analysis");
    const auto claimant = shared_->me();
    for (const auto& row : *queued) {
        if (claim_alive(row, claimant)) {
            log->info("game {}: its analysis runs on node {}", row.game_id, row.node);
            continue;
        }
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
        auto taken = shared_->claim_and_start(std::move(*input), "", "", row.run, false);
        if (const auto* refused = std::get_if<AnalysisRefusal>(&taken)) {
            log->warn("game {}: its analysis is not queued again here ({}): it stays queued",
                      row.game_id, refused->message);
        } else if (shared_->progress(row.game_id)) {
            log->info("game {}: its analysis is queued again", row.game_id);
        }
    }
    return core::ok_status();
}

}  // namespace server
