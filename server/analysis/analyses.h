#pragma once
// The game analyses of the server (issue 25): which are queued or running, the limits on them
// (per player, per address, in all), and the road of one — asked for, stored as "queued" (so that
// a restart queues it again), its positions analysed on the bot threads below every bot move
// (analysis_run.h), its answer stored as "done", then forgotten here: from then on the store has
// it, and it is never computed again. Thread-safe. docs/architecture.md, "Game analysis".
#include <cstddef>
#include <cstdint>
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

// Why an analysis was not queued: the HTTP status, a stable code and a sentence for people.
struct AnalysisRefusal {
    int status = 429;
    std::string code;
    std::string message;
};

class Analyses {
public:
    // `store` and `pool` must outlive every analysis step: stop the pool before destroying them.
    Analyses(Store& store, BotPool& pool, const Limits& limits);
    Analyses(const Analyses&) = delete;
    Analyses& operator=(const Analyses&) = delete;

    // The analysis of `game_id` if it is queued or running here.
    std::optional<AnalysisStatus> progress(std::string_view game_id) const;
    // Asks for the analysis of the finished game `game` for `player_id` ("" when unknown) from
    // `address`: done already, queued or running already, or queued now — or why not (the limits:
    // 429 too_many_analyses, analysis_queue_full; the pool stopping: 503 server_restarting; a
    // store that cannot be read or a game that cannot be replayed: 500 internal_error).
    std::variant<AnalysisStatus, AnalysisRefusal> request(const GameRecord& game,
                                                          const std::string& player_id,
                                                          const std::string& address);
    // At start-up: queues again the analyses stored as queued (a run of the server stopped before
    // they were done); a game that cannot be replayed is marked failed (and logged). An error when
    // the store cannot be read.
    core::Status restore();
    // Analyses queued or running.
    std::size_t active() const;

private:
    struct Shared;
    std::shared_ptr<Shared> shared_;  // also held weakly by the analyses' callbacks
};

}  // namespace server
