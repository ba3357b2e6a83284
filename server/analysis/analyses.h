#pragma once
// The game analyses of the server (issue 25): which are queued or running, the limits on them
// (per player, per address, in all), and the road of one — asked for, claimed in the store as
// "queued" by this node's run (issue 42: of nodes asking at once one wins, and the others answer
// what its claim says), its positions analysed on the bot threads below every bot move
// (analysis_run.h) with its progress written to the claim at most once a second, its answer
// stored as "done", then forgotten here: from then on the store has it, and it is never computed
// again. A claim whose run is dead (store/run_liveness.h, run_alive) is taken over by the node that next
// starts or is asked about it. Thread-safe; every call but active() reads or waits for the store
// (never on an I/O thread). docs/architecture.md, "Game analysis".
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "core/expected.h"
#include "server/bots/bot_pool.h"
#include "server/limits.h"
#include "server/store/store.h"

namespace server {

enum class AnalysisState : std::uint8_t { queued, running, done };

// "queued", "running", "done".
std::string_view analysis_state_name(AnalysisState state);

struct AnalysisStatus {
    AnalysisState state = AnalysisState::queued;
    std::size_t positions_done = 0;  // queued and running: positions analysed so far, and in all
    std::size_t positions_total = 0;
};

// The progress of another node's run is written to its claim at most this often.
inline constexpr std::chrono::seconds analysis_progress_interval{1};

// Who claims analyses here: the node ("" outside cluster mode) and its run (ServerRun::started_at).
struct AnalysisClaimant {
    std::string node;
    std::int64_t run = 0;
};

// What GET shows of an analysis: its status while it is queued or running (here or on another
// node), and the answer's JSON text once done; neither when never asked for (or given up).
struct AnalysisLook {
    std::optional<AnalysisStatus> status;
    std::string answer;
};

// Why an analysis was not queued: the HTTP status, a stable code and a sentence for people.
struct AnalysisRefusal {
    int status = 429;
    std::string code;
    std::string message;
};

class Analyses {
public:
    // `store` and `pool` must outlive every analysis step: stop the pool before destroying them.
    // `claimant` says who this node is when it claims (a node of no name and run 0 when empty).
    Analyses(Store& store, BotPool& pool, const Limits& limits,
             std::function<AnalysisClaimant()> claimant = {});
    Analyses(const Analyses&) = delete;
    Analyses& operator=(const Analyses&) = delete;

    // The analysis of `game_id` if it is queued or running here.
    std::optional<AnalysisStatus> progress(std::string_view game_id) const;
    // What GET shows of `game`'s analysis: from here when it runs here, else from the store (a
    // claim of a dead run is taken over first, as request() would); 500 internal_error when the
    // store cannot be read.
    std::variant<AnalysisLook, AnalysisRefusal> look(const GameRecord& game);
    // Asks for the analysis of the finished game `game` for `player_id` ("" when unknown) from
    // `address`: done already, queued or running already (here, or on the live node whose claim
    // won: then nothing starts here), or queued now — or why not (the limits: 429
    // too_many_analyses, analysis_queue_full; the pool stopping: 503 server_restarting; a store
    // that cannot be read or written or a game that cannot be replayed: 500 internal_error).
    std::variant<AnalysisStatus, AnalysisRefusal> request(const GameRecord& game,
                                                          const std::string& player_id,
                                                          const std::string& address);
    // At start-up: queues again the analyses stored as queued whose claim is dead (a run of the
    // server, this node's or another's, stopped before they were done), taking their claims over;
    // a live node's stay with it. A game that cannot be replayed is marked failed (and logged). An
    // error when the store cannot be read.
    core::Status restore();
    // Analyses queued or running.
    std::size_t active() const;

private:
    struct Shared;
    std::shared_ptr<Shared> shared_;  // also held weakly by the analyses' callbacks
};

}  // namespace server
