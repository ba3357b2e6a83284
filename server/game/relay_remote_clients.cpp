// The owner's side of the relay (relay_remote_clients.h): a remote client stands in this node's
// rooms for a client of another node; what a room sends it goes back to that node, in order.
#include "server/game/relay_remote_clients.h"

#include <chrono>
#include <deque>
#include <optional>

#include "server/game/lobby.h"
#include "server/game/relay_transport.h"
#include "server/game/room.h"
#include "server/game/room_directory.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/limits.h"
#include "server/log.h"

namespace server {

using cluster::RelayKind;
using cluster::RelayRecord;
using Outgoing = RelayTransport::Outgoing;

// A client of node `origin_` (its id there: origin_client_) as this node's rooms see it. Its own
// client id is a fresh one of this node's, so it never meets a local session's.
class RelayRemoteClients::RemoteClient final : public Client,
                                               public std::enable_shared_from_this<RemoteClient> {
public:
    RemoteClient(RelayTransport& transport, std::string origin, std::uint64_t origin_client,
                 std::uint64_t id)
        : transport_(transport),
          origin_(std::move(origin)),
          origin_client_(origin_client),
          id_(id) {}

    std::uint64_t client_id() const override { return id_; }

    void send(Frame frame) override {
        auto record = make_record(RelayKind::frame);
        record.text = *frame;
        transport_.send(Outgoing::to(origin_, std::move(record)));
    }

    void watching(const std::shared_ptr<Room>& room, bool on) override {
        {
            std::lock_guard lock(mutex_);
            if (on) {
                rooms_[room->id()] = room;
            } else if (auto it = rooms_.find(room->id());
                       it != rooms_.end() && it->second.lock() == room) {
                rooms_.erase(it);
            }
        }
        auto record = make_record(RelayKind::watching);
        record.game_id = room->id();
        record.on = on;
        transport_.send(Outgoing::to(origin_, std::move(record)));
    }

    void close_after_queued(std::uint16_t code) override {
        auto record = make_record(RelayKind::close);
        record.code = code;
        transport_.send(Outgoing::to(origin_, std::move(record)));
    }

    // The origin relays this game's requests here no more (another node owns it now).
    void not_here(const std::string& game_id) {
        auto record = make_record(RelayKind::watching);
        record.game_id = game_id;
        record.on = false;
        transport_.send(Outgoing::to(origin_, std::move(record)));
    }

    // The requests of this client are served one at a time, in the order they came: a request
    // whose game is looked up on the blocking pool holds the later ones until its answer has been
    // routed. True: nothing is being served, the caller serves `record` now (and then next()).
    // False: `record` waits its turn — or, with max_held_frames waiting already, is refused
    // (`refused` set).
    bool take_turn(RelayRecord& record, bool& refused) {
        std::lock_guard lock(mutex_);
        if (!serving_) {
            serving_ = true;
            return true;
        }
        if (waiting_.size() >= max_held_frames) {
            refused = true;
            return false;
        }
        waiting_.push_back(std::move(record));
        return false;
    }
    // The next request waiting its turn; none (and the turn ends) when none waits.
    std::optional<RelayRecord> next() {
        std::lock_guard lock(mutex_);
        if (waiting_.empty()) {
            serving_ = false;
            return std::nullopt;
        }
        auto record = std::move(waiting_.front());
        waiting_.pop_front();
        return record;
    }

    // Leaves every room it watches (its client closed, or its node is gone).
    void leave() {
        std::map<std::string, std::weak_ptr<Room>> rooms;
        {
            std::lock_guard lock(mutex_);
            rooms.swap(rooms_);
        }
        for (const auto& [game_id, weak] : rooms) {
            if (auto room = weak.lock()) {
                room->post_client_gone(id_);
            }
        }
    }

private:
    RelayRecord make_record(RelayKind kind) const {
        RelayRecord record;
        record.kind = kind;
        record.from = transport_.node_id();
        record.client = origin_client_;
        return record;
    }

    RelayTransport& transport_;
    const std::string origin_;
    const std::uint64_t origin_client_;
    const std::uint64_t id_;
    std::mutex mutex_;  // guards what follows
    std::map<std::string, std::weak_ptr<Room>> rooms_;
    bool serving_ = false;
    std::deque<RelayRecord> waiting_;
};

namespace {

// Who the remote client speaks for, as the origin said.
Actor actor_of(const std::shared_ptr<Client>& client, const RelayRecord& record) {
    return Actor{
        client,         client->client_id(), record.player_id, record.name,
        record.account, record.lag_ms,       record.ip,        std::chrono::steady_clock::now()};
}

}  // namespace

std::shared_ptr<RelayRemoteClients::RemoteClient> RelayRemoteClients::remote(
    const std::string& origin, std::uint64_t client, bool create) {
    std::lock_guard lock(mutex_);
    auto key = std::make_pair(origin, client);
    if (auto it = remotes_.find(key); it != remotes_.end()) {
        return it->second;
    }
    if (!create || stopping_) {
        return nullptr;
    }
    auto made = std::make_shared<RemoteClient>(transport_, origin, client,
                                               state_.sessions().next_client_id());
    remotes_.emplace(std::move(key), made);
    remotes_now_.store(remotes_.size(), std::memory_order_relaxed);
    return made;
}

void RelayRemoteClients::drop_remote(const std::string& origin, std::uint64_t client) {
    std::shared_ptr<RemoteClient> dropped;
    {
        std::lock_guard lock(mutex_);
        if (auto it = remotes_.find({origin, client}); it != remotes_.end()) {
            dropped = std::move(it->second);
            remotes_.erase(it);
        }
        remotes_now_.store(remotes_.size(), std::memory_order_relaxed);
    }
    if (dropped) {
        dropped->leave();
        state_.lobby().post_client_gone(dropped->client_id());
    }
}

void RelayRemoteClients::drop_origin(const std::string& origin) {
    std::vector<std::shared_ptr<RemoteClient>> dropped;
    {
        std::lock_guard lock(mutex_);
        for (auto it = remotes_.lower_bound({origin, 0});
             it != remotes_.end() && it->first.first == origin;) {
            dropped.push_back(std::move(it->second));
            it = remotes_.erase(it);
        }
        remotes_now_.store(remotes_.size(), std::memory_order_relaxed);
    }
    for (const auto& remote_client : dropped) {
        remote_client->leave();
        state_.lobby().post_client_gone(remote_client->client_id());
    }
}

void RelayRemoteClients::handle_note(const RelayRecord& record) {
    if (record.kind == RelayKind::gone) {
        drop_remote(record.from, record.client);
        return;
    }
    auto client = remote(record.from, record.client, false);
    auto room = client ? state_.loaded_room(record.game_id) : nullptr;
    if (room && record.kind == RelayKind::looked_away) {
        room->post_looked_away(client->client_id());
    } else if (room && record.kind == RelayKind::lag) {
        room->post_lag(client->client_id(), record.lag_ms);
    }
}

void RelayRemoteClients::handle_present(const RelayRecord& record) {
    if (auto client = remote(record.from, record.client, true)) {
        state_.lobby().post_player_connected(actor_of(client, record), true);
    }
}

void RelayRemoteClients::handle_request(const RelayRecord& record) {
    auto client = remote(record.from, record.client, true);
    if (!client) {
        return;  // stopping
    }
    auto mine = record;
    bool refused = false;
    if (!client->take_turn(mine, refused)) {
        if (refused) {
            auto parsed = protocol::parse_request(record.text);
            const auto [id, game_id] = std::visit(
                [](const auto& request) { return std::make_pair(request.id, request.game_id); },
                parsed);
            client->send(error_frame(protocol::ErrorCode::rate_limited,
                                     "too many messages while a game is loaded; slow down", id,
                                     game_id));
        }
        return;
    }
    serve_requests(client, std::move(mine));
}

void RelayRemoteClients::serve_requests(const std::shared_ptr<RemoteClient>& client,
                                        RelayRecord record) {
    for (;;) {
        if (!serve_request(client, record)) {
            return;  // its lookup's answer serves the next ones
        }
        auto next = client->next();
        if (!next) {
            return;
        }
        record = std::move(*next);
    }
}

bool RelayRemoteClients::serve_request(const std::shared_ptr<RemoteClient>& client,
                                       const RelayRecord& record) {
    auto parsed = protocol::parse_request(record.text);
    if (auto* error = std::get_if<protocol::RequestError>(&parsed)) {
        // The origin checked it: a node of another version may read requests differently.
        client->send(error_frame(error->error, error->id, error->game_id));
        return true;
    }
    auto request = std::get<protocol::Request>(std::move(parsed));
    if (state_.stopping()) {
        client->send(error_frame(protocol::ErrorCode::server_restarting,
                                 "the server is restarting: reconnect in a moment and send this "
                                 "again",
                                 request.id, request.game_id));
        return true;
    }
    auto actor = actor_of(client, record);
    if (protocol::is_lobby_request(request.type)) {
        // A seek of this node's accepted (or cancelled) from another node: only this node pairs it
        // (the accepter's ratings and games read on the pool first).
        state_.lobby().post_request_reading(std::move(actor), std::move(request));
        return true;
    }
    // In memory (or known to be no game): routed at once. Else the store is read on the blocking
    // pool, never on this (the receiving) thread, and the client's later requests wait.
    if (auto known = state_.rooms().known(request.game_id)) {
        route_lookup(client, std::move(*known), actor, std::move(request), record.from);
        return true;
    }
    const bool queued = state_.rooms().lookup(
        actor, request, state_.io().get_executor(),
        [this, client, actor, request,
         from = record.from](core::Expected<GameLookup> game) mutable {
            guarded(
                "relay", [&] { return "game " + request.game_id + " for node " + from; },
                [&] { route_lookup(client, std::move(game), actor, std::move(request), from); });
            if (auto next = client->next()) {
                serve_requests(client, std::move(*next));
            }
        });
    if (!queued) {
        // The pool's queue is full: the answer a busy room gives, with the game it was about.
        client->send(error_frame(protocol::ErrorCode::rate_limited, std::string(pool_busy_text),
                                 request.id, request.game_id));
        return true;
    }
    return false;
}

void RelayRemoteClients::route_lookup(const std::shared_ptr<RemoteClient>& client,
                                      core::Expected<GameLookup> game, const Actor& actor,
                                      protocol::Request request, const std::string& origin) {
    if (!game && game.error().rfind(owned_elsewhere_prefix, 0) == 0) {
        // Another node owns the game now: the origin finds it when the client sends this again.
        client->not_here(request.game_id);
        client->send(error_frame(protocol::ErrorCode::server_restarting, lost_room_text, request.id,
                                 request.game_id));
    } else if (!game) {
        component_logger("relay")->error("game {} for node {}: {}", request.game_id, origin,
                                         game.error());
        client->send(error_frame(protocol::ErrorCode::internal_error,
                                 "the server could not load this game; try again", request.id,
                                 request.game_id));
    } else if (game->room) {
        game->room->post_request(actor, std::move(request));
    } else if (!game->answered) {
        client->send(error_frame(protocol::ErrorCode::no_such_game, "there is no such game",
                                 request.id, request.game_id));
    }
    // Else a finished game this node released meanwhile, asked about by someone without a seat:
    // answered from the store on the pool, before this ran.
}

std::vector<std::string> RelayRemoteClients::origins() {
    std::vector<std::string> origins;
    std::lock_guard lock(mutex_);
    std::string last;
    for (const auto& [key, remote_client] : remotes_) {
        if (key.first != last) {
            origins.push_back(key.first);
            last = key.first;
        }
    }
    return origins;
}

void RelayRemoteClients::origin_swept(const std::string& origin, bool listening) {
    int silent = 0;
    {
        std::lock_guard lock(mutex_);
        silent = listening ? 0 : ++silent_origins_[origin];
        if (silent == 0) {
            silent_origins_.erase(origin);
        }
    }
    if (silent >= relay_silent_sweeps_before_gone) {
        component_logger("relay")->warn("node {} is gone: its clients leave this node's rooms",
                                        origin);
        drop_origin(origin);
        std::lock_guard lock(mutex_);
        silent_origins_.erase(origin);
    }
}

std::size_t RelayRemoteClients::count() {
    std::lock_guard lock(mutex_);
    return remotes_.size();
}

void RelayRemoteClients::stop() {
    std::lock_guard lock(mutex_);
    stopping_ = true;
}

}  // namespace server
