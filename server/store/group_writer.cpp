#include "server/store/group_writer.h"

#include <cassert>
#include <exception>
#include <string>
#include <type_traits>
#include <utility>

#include "server/log.h"
#include "server/metrics/metrics.h"

namespace server {

namespace {

// About how many bytes of text a batch carries: what the group's byte cap counts.
std::size_t text_bytes(const WriteBatch& batch) {
    std::size_t bytes = 0;
    for (const auto& op : batch) {
        bytes += std::visit(
            [](const auto& w) -> std::size_t {
                using W = std::decay_t<decltype(w)>;
                if constexpr (std::is_same_v<W, AppendEvents>) {
                    std::size_t sum = w.game_id.size();
                    for (const auto& event : w.events) {
                        sum += event.size();
                    }
                    return sum;
                } else if constexpr (std::is_same_v<W, SaveSeek>) {
                    return w.seek.id.size() + w.seek.json.size();
                } else if constexpr (std::is_same_v<W, SaveAnalysis>) {
                    return w.analysis.game_id.size() + w.analysis.json.size();
                } else {
                    return 64;
                }
            },
            op);
    }
    return bytes;
}

// Calls `done` (if any); an exception it throws is logged, never let into the writer's loop.
void call_handler(const CommitHandler& done, core::Status outcome) {
    if (!done) {
        return;
    }
    try {
        done(std::move(outcome));
    } catch (const std::exception& e) {
        component_logger("store")->error("a commit handler threw: {}", e.what());
    } catch (...) {
        component_logger("store")->error("a commit handler threw");
    }
}

}  // namespace

GroupWriter::GroupWriter(WriteGroup write_group)
    : write_group_(std::move(write_group)), thread_([this] { run(); }) {}

GroupWriter::~GroupWriter() {
    stop();
}

void GroupWriter::submit(WriteBatch batch, CommitHandler done) {
    {
        std::lock_guard lock(queue_mutex_);
        if (!stopped_) {
            queue_.push_back(Pending{std::move(batch), std::move(done)});
            wake_.notify_one();
            return;
        }
    }
    call_handler(done, core::make_error("the store is closed; nothing was written"));
}

void GroupWriter::stop() {
    if (!thread_.joinable()) {
        return;
    }
    assert(thread_.get_id() != std::this_thread::get_id() && "stop() called from a handler");
    {
        std::lock_guard lock(queue_mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
}

void GroupWriter::run() {
    for (;;) {
        auto group = take_group();
        if (group.empty()) {
            return;
        }
        auto outcomes = write_group_(group);
        metrics().commit_group_batches.observe(static_cast<double>(group.size()));
        for (std::size_t i = 0; i < group.size(); ++i) {
            call_handler(group[i].done, std::move(outcomes[i]));
        }
    }
}

std::vector<GroupWriter::Pending> GroupWriter::take_group() {
    std::unique_lock lock(queue_mutex_);
    wake_.wait(lock, [this] { return !queue_.empty() || stopping_; });
    std::vector<Pending> group;
    std::size_t bytes = 0;
    while (!queue_.empty() && group.size() < max_group_batches && bytes < max_group_bytes) {
        bytes += text_bytes(queue_.front().batch);
        group.push_back(std::move(queue_.front()));
        queue_.pop_front();
    }
    if (group.empty()) {
        stopped_ = true;  // stopping, and nothing is left: later submits are refused at once
    }
    return group;
}

}  // namespace server
