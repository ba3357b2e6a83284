// A connection's admin requests (issue 16): mute a player, close or reopen an account. The
// store's reads run on the blocking pool, the session continues on its own strand with them, and a
// change takes effect once the store has committed it.
#include "server/game/server_state.h"
#include "server/log.h"
#include "server/net/websocket_pool_job.h"
#include "server/net/websocket_session.h"

namespace server {

using protocol::ErrorCode;
using protocol::RequestType;

void WebSocketSession::admin_request(const protocol::Request& request) {
    constexpr const char* unreadable = "the server could not read the accounts; try again";
    if (!account_) {
        reply_error(ErrorCode::forbidden, "only admins may do this", request.id);
        return;
    }
    using Found = std::pair<std::optional<AccountRecord>, std::optional<PlayerRecord>>;
    pool_job(
        &WebSocketSession::account_pending_, request.id,
        [&state = state_, me = player_->id, target = request.player_id]() -> core::Expected<Found> {
            auto admin = state.store().account(me);
            if (!admin) {
                return core::make_error(admin.error());
            }
            if (!*admin || !(*admin)->admin) {
                return Found{std::move(*admin), std::nullopt};
            }
            auto player = state.store().player(target);
            if (!player) {
                return core::make_error(player.error());
            }
            return Found{std::move(*admin), std::move(*player)};
        },
        [this, request](const core::Expected<Found>& found) {
            if (!found) {
                read_failed("admin: " + found.error(), unreadable, request.id);
                return;
            }
            const auto& me = found->first;
            if (!me || !me->admin) {
                reply_error(ErrorCode::forbidden, "only admins may do this", request.id);
                return;
            }
            if (!found->second) {
                reply_error(ErrorCode::no_such_player, "there is no such player", request.id);
                return;
            }
            finish_admin_request(request, *me, *found->second);
        });
}

void WebSocketSession::finish_admin_request(const protocol::Request& request,
                                            const AccountRecord& me, const PlayerRecord& target) {
    const bool mute = request.type == RequestType::admin_mute;
    if (!mute && target.id == me.player_id) {
        reply_error(ErrorCode::forbidden, "you cannot close your own account", request.id);
        return;
    }
    WriteBatch batch;
    if (mute) {
        batch.push_back(SetModeration{target.id, request.muted, std::nullopt});
    } else {
        batch.push_back(SetModeration{target.id, std::nullopt, request.closed});
        if (request.closed) {
            batch.push_back(RevokeSessions{target.id, ""});
        }
    }
    account_pending_ = true;
    store_then(
        std::move(batch), [this, request, mute, target, admin = me.username](core::Status stored) {
            account_pending_ = false;
            if (!stored) {
                reply_error(ErrorCode::internal_error, "could not change the account", request.id);
                return;
            }
            // What this request set takes effect even if the flags cannot be read back below.
            if (mute) {
                state_.account_news().set_muted(target.id, request.muted);
            } else if (request.closed) {
                state_.account_news().sign_out(target.id, 0, "account_closed");
            }
            pool_job(
                &WebSocketSession::account_pending_, request.id,
                [&state = state_, target_id = target.id] {
                    return state.store().moderation(target_id);
                },
                [this, request, target, admin](core::Expected<Moderation> flags) {
                    if (!flags) {
                        read_failed("admin: " + flags.error(),
                                    "the change was saved, but the account could not be read back",
                                    request.id);
                        return;
                    }
                    component_logger("ws")->info("admin {}: {} {}: muted {}, closed {}", admin,
                                                 protocol::request_type_name(request.type),
                                                 target.id, flags->muted, flags->closed);
                    reply(protocol::account_status_message(target.id, target.name, flags->muted,
                                                           flags->closed, request.id));
                });
        });
}

}  // namespace server
