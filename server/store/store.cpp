#include "server/store/store.h"

#include <chrono>
#include <future>
#include <memory>

#include "server/metrics/metrics.h"

namespace server {

void Store::commit(WriteBatch batch, CommitHandler done) {
    using Clock = std::chrono::steady_clock;
    in_flight_.fetch_add(1);
    started_.fetch_add(1);
    // Counted out when the handler returns (or throws), or when commit_batch throws instead.
    struct Leave {
        std::atomic<std::size_t>* count;
        ~Leave() { count->fetch_sub(1); }
    };
    auto counted = std::make_shared<bool>(false);
    try {
        commit_batch(std::move(batch), [this, counted, started = Clock::now(),
                                        done = std::move(done)](core::Status status) {
            *counted = true;
            const Leave leave{&in_flight_};
            metrics().commit_seconds.observe(Clock::now() - started);
            done(std::move(status));
        });
    } catch (...) {
        if (!*counted) {
            in_flight_.fetch_sub(1);
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
