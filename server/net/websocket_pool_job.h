#pragma once
// WebSocketSession::pool_job (websocket_session.h): a connection's blocking calls on the pool,
// its answer back on the session's strand, its later frames held meanwhile.
#include <string>

#include "server/blocking_pool.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/net/websocket_session.h"

namespace server {

template <class Work, class Then>
bool WebSocketSession::pool_job(bool WebSocketSession::*pending, const nlohmann::json& id,
                                Work work, Then then) {
    auto self = shared_from_this();
    // Set before the hand-over: the answer may be posted back before run_then returns.
    this->*pending = true;
    const bool queued = state_.blocking().run_then(
        ws_.get_executor(), std::move(work),
        [self, pending, then = std::move(then)](auto result) mutable {
            guarded(
                "ws", [&] { return "client " + std::to_string(self->id_); },
                [&] {
                    (*self).*pending = false;
                    then(std::move(result));
                    self->release_held();
                });
        });
    if (!queued) {
        this->*pending = false;
        enqueue(error_frame(protocol::ErrorCode::rate_limited, pool_busy_text, id));
        return false;
    }
    return true;
}

template <class Then>
void WebSocketSession::with_unfinished_games(bool WebSocketSession::*pending,
                                             const std::string& player_id, Then then) {
    if (!state_.leases()) {
        then(state_.unfinished_games_here(player_id));
        return;
    }
    auto self = shared_from_this();
    this->*pending = true;
    const bool queued = state_.blocking().run_then(
        ws_.get_executor(),
        [&state = state_, player_id]() -> core::Expected<std::vector<std::string>> {
            return state.unfinished_games_of(player_id);
        },
        [self, pending, then, player_id](core::Expected<std::vector<std::string>> games) mutable {
            guarded(
                "ws", [&] { return "client " + std::to_string(self->id_); },
                [&] {
                    (*self).*pending = false;
                    then(games ? std::move(*games) : self->state_.unfinished_games_here(player_id));
                    self->release_held();
                });
        });
    if (!queued) {
        this->*pending = false;
        then(state_.unfinished_games_here(player_id));
    }
}

}  // namespace server
