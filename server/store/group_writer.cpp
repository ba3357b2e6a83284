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
                } else if constexpr (std::is_same_v<W, AppendTournamentEvents>) {
                    std::size_t sum = w.tournament_id.size();
                    for (const auto& event : w.events) {
                        sum += event.size();
                    }
                    return sum;
                } else if constexpr (std::is_same_v<W, CreateTournament>) {
                    return w.tournament.id.size() + w.tournament.config_json.size();
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

// Whether `batch` is a room's (its events or a chat line, and no new game): each room has at
// most one batch in flight, so these are bounded already and never refused.
bool is_room_batch(const WriteBatch& batch) {
    bool room = false;
    for (const auto& op : batch) {
        if (std::holds_alternative<CreateGame>(op)) {
            return false;
        }
        room = room || std::holds_alternative<AppendEvents>(op) ||
               std::holds_alternative<AddChatLine>(op);
    }
    return room;
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

GroupWriter::~GroupWriter() {
    stop();
}

GroupWriter::GroupWriter(WriteGroup write_group, std::size_t max_queued)
    : write_group_(std::move(write_group)), max_queued_(max_queued), thread_([this] { run(); }) {}

void GroupWriter::submit(WriteBatch batch, CommitHandler done) {
    const bool room = is_room_batch(batch);
    bool closed = false;
    bool warn = false;  // once until the queue has room again
    {
        std::lock_guard lock(queue_mutex_);
        closed = stopped_;
        if (!closed && (room || queued_others_ < max_queued_)) {
            queue_.push_back(Pending{std::move(batch), std::move(done), room});
            queued_others_ += room ? 0 : 1;
            wake_.notify_one();
            return;
        }
        busy_refusals_ += closed ? 0 : 1;
        warn = !closed && !warned_;
        warned_ = warned_ || warn;
    }
    if (closed) {
        call_handler(done, core::make_error("the store is closed; nothing was written"));
        return;
    }
    if (warn) {
        component_logger("store")->warn(
            "the writer's queue holds {} writes: more are refused until it drains", max_queued_);
    }
    call_handler(done, core::make_error(std::string(store_busy_error)));
}

std::uint64_t GroupWriter::busy_refusals() {
    std::lock_guard lock(queue_mutex_);
    return busy_refusals_;
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
        queued_others_ -= queue_.front().room ? 0 : 1;
        group.push_back(std::move(queue_.front()));
        queue_.pop_front();
    }
    warned_ = warned_ && queued_others_ >= max_queued_;
    if (group.empty()) {
        stopped_ = true;  // stopping, and nothing is left: later submits are refused at once
    }
    return group;
}

}  // namespace server
