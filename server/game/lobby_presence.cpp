// The lobby's part of "a seek belongs to its player": which sessions are connected as whom, seeks
// following their player from one connection to the next, and withdrawing the seeks whose time is
// up (a public seek's player gone for longer than the grace, a private invitation past its life).
#include <algorithm>

#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "server/game/lobby.h"
#include "server/game/relay.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"

namespace server {

void Lobby::post_player_connected(Actor actor, bool relayed) {
    boost::asio::post(strand_, [self = shared_from_this(), actor = std::move(actor), relayed] {
        guarded(
            "lobby",
            [&] {
                return "client " + std::to_string(actor.client_id) + " player " + actor.player_id +
                       " connected";
            },
            [&] { self->player_connected(actor, relayed); });
    });
}

void Lobby::post_barrier(std::function<void()> then) {
    boost::asio::post(strand_, [self = shared_from_this(), then = std::move(then)] {
        guarded("lobby", "barrier", then);
    });
}

void Lobby::post_client_gone(std::uint64_t client_id) {
    boost::asio::post(strand_, [self = shared_from_this(), client_id] {
        guarded(
            "lobby", [&] { return "client " + std::to_string(client_id) + " leaving"; },
            [&] { self->client_gone(client_id); });
    });
}

// The player's seeks move to this connection (their grace, if any, ends) and are announced to it
// again, so a reloaded page shows its open seeks and invitation links. In cluster mode the
// player's seeks on other nodes do the same there: each such node is told once, and announces
// its seeks to the connection through the relay.
void Lobby::player_connected(const Actor& actor, bool relayed) {
    connected_[actor.client_id] = actor;
    bool changed = false;
    std::set<std::string> holders;
    for (auto& seek : seeks_) {
        if (seek.creator.player_id != actor.player_id) {
            continue;
        }
        if (!seek.node.empty()) {
            if (!relayed) {
                holders.insert(seek.node);
            }
            continue;
        }
        seek.creator = actor;
        if (!seek.is_private && seek.expires) {
            seek.expires.reset();
            changed = true;
        }
        actor.send(make_frame(protocol::seek_created_message(seek.json, nullptr)));
    }
    if (changed) {
        arm_expiry();
    }
    auto* relay = state_.relay();
    if (auto client = actor.client.lock(); relay && client) {
        for (const auto& node : holders) {
            relay->present(node, client, actor);
        }
    }
}

std::optional<Actor> Lobby::connection_of(const std::string& player_id,
                                          std::uint64_t except) const {
    for (auto it = connected_.rbegin(); it != connected_.rend(); ++it) {
        if (it->first != except && it->second.player_id == player_id &&
            !it->second.client.expired()) {
            return it->second;
        }
    }
    return std::nullopt;
}

// A closed session's seeks follow its player to another open connection; with none left, a
// public seek waits seek_grace for the player to come back, and a private invitation keeps its
// own end of life.
void Lobby::client_gone(std::uint64_t client_id) {
    subscribers_.erase(client_id);
    connected_.erase(client_id);
    bool waiting = false;
    for (auto& seek : seeks_) {
        if (seek.creator.client_id != client_id || !seek.node.empty()) {
            continue;
        }
        if (auto other = connection_of(seek.creator.player_id, client_id)) {
            seek.creator = *other;
        } else if (!seek.is_private) {
            seek.expires = std::chrono::steady_clock::now() + state_.limits().seek_grace;
            waiting = true;
        }
    }
    if (waiting) {
        arm_expiry();
    }
}

void Lobby::arm_expiry() {
    std::optional<std::chrono::steady_clock::time_point> next;
    for (const auto& seek : seeks_) {
        if (seek.expires && (!next || *seek.expires < *next)) {
            next = seek.expires;
        }
    }
    if (!next) {
        expiry_timer_.cancel();
        return;
    }
    expiry_timer_.expires_at(*next);
    expiry_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        auto self = weak.lock();
        if (ec || !self) {
            return;  // cancelled (re-armed or shutting down)
        }
        guarded(
            "lobby", [] { return std::string("expiring seeks"); }, [&] { self->expire_seeks(); });
    });
}

void Lobby::expire_seeks() {
    const auto now = std::chrono::steady_clock::now();
    std::vector<Seek> expired;
    for (const auto& seek : seeks_) {
        if (seek.expires && *seek.expires <= now) {
            expired.push_back(seek);
        }
    }
    for (const auto& seek : expired) {
        component_logger("lobby")->info("seek {} of player {} expired", seek.id,
                                        seek.creator.player_id);
        remove_seek(seek.id);
        seek.creator.send(make_frame(protocol::seek_cancelled_message(seek.id, nullptr)));
    }
    arm_expiry();
}

}  // namespace server
