#pragma once
// One game's analysis while it runs (issue 25): background work for the bot pool (bot_pool.h),
// one position a step, so that a bot's move never waits for more than one position. Steps may
// run on several bot threads at once; the thread that finishes the last position builds the
// answer (analysis_json.h) and hands it to `done`. A step stopped by the pool leaves the analysis
// unfinished, and `done` is then never called; a position that cannot be analysed ends it with
// that error.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/engine/analysis.h"
#include "core/expected.h"
#include "server/analysis/analysis_input.h"
#include "server/bots/bot_pool.h"

namespace server {

class AnalysisRun final : public BackgroundWork, public std::enable_shared_from_this<AnalysisRun> {
public:
    // Called once, on a bot thread: the answer's JSON text, or why there is none.
    using Done = std::function<void(core::Expected<std::string>)>;
    // Called on a bot thread after each position but the last (positions analysed, in all), with
    // the run's lock held, so never after the run failed or finished: keep it short (queue a
    // write, no wait).
    using Progress = std::function<void(std::size_t, std::size_t)>;

    // `nodes` for each position (Chessence and Chesica).
    AnalysisRun(AnalysisInput input, std::uint64_t nodes, Done done, Progress progress = {});

    Step next_step() override;

    const std::string& game_id() const { return input_.game_id; }
    // Whether a step has been handed out (the analysis is "running" rather than "queued"). Both
    // reads take no lock: an owner may call them under its own lock, which Progress takes.
    bool started() const { return started_.load(); }
    // Positions analysed so far, and in all.
    std::size_t positions_done() const { return positions_done_.load(); }
    std::size_t positions_total() const { return slots_.size(); }

private:
    struct Slot {
        std::size_t line = 0;
        std::size_t ply = 0;
    };
    // Analyses slot `index` (none when the game has no position at all: then it only finishes).
    void run_step(std::size_t index, const std::atomic<bool>& stop);
    void finish(core::Expected<std::string> answer);

    AnalysisInput input_;
    std::uint64_t nodes_;
    Done done_;
    Progress progress_;
    std::vector<Slot> slots_;
    mutable std::mutex mutex_;  // guards what follows
    std::size_t handed_out_ = 0;
    std::size_t analysed_ = 0;
    bool failed_ = false;
    std::atomic<bool> started_{false};            // handed_out_ > 0, readable without the lock
    std::atomic<std::size_t> positions_done_{0};  // analysed_, readable without the lock
    std::vector<std::vector<core::engine::PositionAnalysis>> results_;  // by line, then ply
};

}  // namespace server
