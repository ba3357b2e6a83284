#include "server/analysis/analysis_run.h"

#include <algorithm>

#include "protocol/messages.h"
#include "server/analysis/analysis_json.h"

namespace server {

AnalysisRun::AnalysisRun(AnalysisInput input, std::uint64_t nodes, Done done, Progress progress)
    : input_(std::move(input)),
      nodes_(nodes),
      done_(std::move(done)),
      progress_(std::move(progress)) {
    results_.resize(input_.lines.size());
    for (std::size_t line = 0; line < input_.lines.size(); ++line) {
        const auto count = input_.lines[line].positions.size();
        results_[line].resize(count);
        for (std::size_t ply = 0; ply < count; ++ply) {
            slots_.push_back({line, ply});
        }
    }
}

BackgroundWork::Step AnalysisRun::next_step() {
    std::lock_guard lock(mutex_);
    // A game without positions (a Sniderman match with no capture) still needs one step to finish.
    const std::size_t steps = std::max<std::size_t>(slots_.size(), 1);
    if (failed_ || handed_out_ >= steps) {
        return {};
    }
    const std::size_t index = handed_out_++;
    started_ = true;
    return [self = shared_from_this(), index](const std::atomic<bool>& stop) {
        self->run_step(index, stop);
    };
}

void AnalysisRun::run_step(std::size_t index, const std::atomic<bool>& stop) {
    if (index < slots_.size()) {
        const Slot slot = slots_[index];
        auto analysed = core::engine::analyse_position(*input_.lines[slot.line].positions[slot.ply],
                                                       nodes_, &stop);
        if (stop.load()) {
            return;  // the pool is stopping: this analysis stays unfinished
        }
        std::unique_lock lock(mutex_);
        if (failed_) {
            return;
        }
        if (!analysed) {
            failed_ = true;
            lock.unlock();
            const auto& line = input_.lines[slot.line];
            const std::string where =
                line.round > 0 ? "round " + std::to_string(line.round) + ", " : std::string();
            finish(core::make_error(where + "position after " + std::to_string(slot.ply) +
                                    " moves: " + analysed.error()));
            return;
        }
        results_[slot.line][slot.ply] = std::move(*analysed);
        positions_done_ = ++analysed_;
        if (analysed_ < slots_.size()) {
            if (progress_) {
                progress_(analysed_, slots_.size());
            }
            return;
        }
    }
    // Every position is in: no other step touches the results any more.
    finish(protocol::to_text(analysis_json(input_, results_, nodes_)));
}

void AnalysisRun::finish(core::Expected<std::string> answer) {
    if (done_) {
        done_(std::move(answer));
    }
}

}  // namespace server
