#include "server/store/store.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>

#include "server/metrics/metrics.h"

namespace server {

namespace {
// The number of the last batch whose handler this thread entered: a store that calls handlers on
// the caller's thread (MemoryStore) may throw out of a handler, and commit() must then not count
// the batch out twice. Batch numbers only grow, across every store of the process (a test holds
// several), and a thread enters only its own batches' handlers synchronously, so "entered" is
// "this thread's number is at least the batch's".
std::atomic<std::uint64_t> last_batch_number{0};
thread_local std::uint64_t handler_entered_on_this_thread = 0;
}  // namespace

namespace {
std::int64_t steady_now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
}  // namespace

std::chrono::milliseconds Store::stalled_for() const {
    if (in_flight_.load() == 0) {
        return std::chrono::milliseconds(0);
    }
    const auto since = std::chrono::nanoseconds(steady_now_ns() - progressed_.load());
    return std::max(std::chrono::milliseconds(0),
                    std::chrono::duration_cast<std::chrono::milliseconds>(since));
}

void Store::commit(WriteBatch batch, CommitHandler done) {
    using Clock = std::chrono::steady_clock;
    if (in_flight_.fetch_add(1) == 0) {
        progressed_.store(steady_now_ns());  // the writer was idle: nothing stalled before this
    }
    started_.fetch_add(1);
    const std::uint64_t number = last_batch_number.fetch_add(1) + 1;
    // Counted out when the handler returns (or throws), or when commit_batch throws instead.
    struct Leave {
        std::atomic<std::size_t>* count;
        ~Leave() { count->fetch_sub(1); }
    };
    try {
        commit_batch(std::move(batch), [this, number, started = Clock::now(),
                                        done = std::move(done)](core::Status status) {
            handler_entered_on_this_thread = number;
            progressed_.store(steady_now_ns());
            const Leave leave{&in_flight_};
            metrics().commit_seconds.observe(Clock::now() - started);
            if (!status) {
                failed_.fetch_add(1);
            }
            done(std::move(status));
        });
    } catch (...) {
        // A throwing commit_batch never calls its handler (store.h), unless the handler itself
        // threw on this thread, and then it counted the batch out already.
        if (handler_entered_on_this_thread < number) {
            in_flight_.fetch_sub(1);
            failed_.fetch_add(1);
        }
        throw;
    }
}

core::Status Store::commit_sync(WriteBatch batch) {
    std::promise<core::Status> outcome;
    auto done = outcome.get_future();
    commit(std::move(batch),
           [&outcome](core::Status status) { outcome.set_value(std::move(status)); });
    return done.get();
}

core::Status Store::insert_player(const PlayerRecord& player) {
    return commit_sync({InsertPlayer{player}});
}

core::Status Store::rename_player(std::string_view id, std::string_view name) {
    return commit_sync({RenamePlayer{std::string(id), std::string(name)}});
}

core::Status Store::create_game(const GameRecord& game) {
    return commit_sync({CreateGame{game}});
}

core::Status Store::append_event(std::string_view game_id, std::int64_t version,
                                 std::string_view event_json) {
    return commit_sync({AppendEvents{std::string(game_id), version, {std::string(event_json)}}});
}

core::Status Store::finish_game(std::string_view game_id, std::string_view result_json,
                                std::int64_t finished_at) {
    return commit_sync({FinishGame{std::string(game_id), std::string(result_json), finished_at}});
}

core::Status Store::save_seek(const SeekRecord& seek) {
    return commit_sync({SaveSeek{seek}});
}

core::Status Store::delete_seek(std::string_view seek_id) {
    return commit_sync({DeleteSeek{std::string(seek_id)}});
}

}  // namespace server
