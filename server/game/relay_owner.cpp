// The owner's side of the relay (relay.h): a remote client stands in this node's rooms for a
// client of another node; what a room sends it goes back to that node, in order.
#include <chrono>

#include "protocol/requests.h"
#include "server/game/lobby.h"
#include "server/game/relay.h"
#include "server/game/room.h"
#include "server/game/server_state.h"
#include "server/log.h"

namespace server {

using cluster::RelayKind;
using cluster::RelayRecord;

// A client of node `origin_` (its id there: origin_client_) as this node's rooms see it. Its own
// client id is a fresh one of this node's, so it never meets a local session's.
class Relay::RemoteClient final : public Client, public std::enable_shared_from_this<RemoteClient> {
public:
    RemoteClient(Relay& relay, std::string origin, std::uint64_t origin_client, std::uint64_t id)
        : relay_(relay), origin_(std::move(origin)), origin_client_(origin_client), id_(id) {}

    std::uint64_t client_id() const override { return id_; }

    void send(Frame frame) override {
        auto record = make_record(RelayKind::frame);
        record.text = *frame;
        relay_.send(Outgoing::to(origin_, std::move(record)));
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
        relay_.send(Outgoing::to(origin_, std::move(record)));
    }

    void close_after_queued(std::uint16_t code) override {
        auto record = make_record(RelayKind::close);
        record.code = code;
        relay_.send(Outgoing::to(origin_, std::move(record)));
    }

    // The origin relays this game's requests here no more (another node owns it now).
    void not_here(const std::string& game_id) {
        auto record = make_record(RelayKind::watching);
        record.game_id = game_id;
        record.on = false;
        relay_.send(Outgoing::to(origin_, std::move(record)));
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
        record.from = relay_.node_id_;
        record.client = origin_client_;
        return record;
    }

    Relay& relay_;
    const std::string origin_;
    const std::uint64_t origin_client_;
    const std::uint64_t id_;
    std::mutex mutex_;
    std::map<std::string, std::weak_ptr<Room>> rooms_;
};

namespace {

// Who the remote client speaks for, as the origin said.
Actor actor_of(const std::shared_ptr<Client>& client, const RelayRecord& record) {
    return Actor{
        client,         client->client_id(), record.player_id, record.name,
        record.account, record.lag_ms,       record.ip,        std::chrono::steady_clock::now()};
}

}  // namespace

std::shared_ptr<Relay::RemoteClient> Relay::remote(const std::string& origin, std::uint64_t client,
                                                   bool create) {
    std::lock_guard lock(mutex_);
    auto key = std::make_pair(origin, client);
    if (auto it = remotes_.find(key); it != remotes_.end()) {
        return it->second;
    }
    if (!create || stopping_) {
        return nullptr;
    }
    auto made = std::make_shared<RemoteClient>(*this, origin, client, state_.next_client_id());
    remotes_.emplace(std::move(key), made);
    return made;
}

void Relay::drop_remote(const std::string& origin, std::uint64_t client) {
    std::shared_ptr<RemoteClient> dropped;
    {
        std::lock_guard lock(mutex_);
        if (auto it = remotes_.find({origin, client}); it != remotes_.end()) {
            dropped = std::move(it->second);
            remotes_.erase(it);
        }
    }
    if (dropped) {
        dropped->leave();
        state_.lobby().post_client_gone(dropped->client_id());
    }
}

void Relay::drop_origin(const std::string& origin) {
    std::vector<std::shared_ptr<RemoteClient>> dropped;
    {
        std::lock_guard lock(mutex_);
        for (auto it = remotes_.lower_bound({origin, 0});
             it != remotes_.end() && it->first.first == origin;) {
            dropped.push_back(std::move(it->second));
            it = remotes_.erase(it);
        }
    }
    for (const auto& remote_client : dropped) {
        remote_client->leave();
        state_.lobby().post_client_gone(remote_client->client_id());
    }
}

void Relay::handle_note(const RelayRecord& record) {
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

void Relay::handle_present(const RelayRecord& record) {
    if (auto client = remote(record.from, record.client, true)) {
        state_.lobby().post_player_connected(actor_of(client, record), true);
    }
}

void Relay::handle_request(const RelayRecord& record) {
    auto client = remote(record.from, record.client, true);
    if (!client) {
        return;  // stopping
    }
    auto parsed = protocol::parse_request(record.text);
    if (auto* error = std::get_if<protocol::RequestError>(&parsed)) {
        // The origin checked it: a node of another version may read requests differently.
        client->send(error_frame(error->error, error->id, error->game_id));
        return;
    }
    auto request = std::get<protocol::Request>(std::move(parsed));
    if (state_.stopping()) {
        client->send(error_frame(protocol::ErrorCode::server_restarting,
                                 "the server is restarting: reconnect in a moment and send this "
                                 "again",
                                 request.id, request.game_id));
        return;
    }
    auto actor = actor_of(client, record);
    if (protocol::is_lobby_request(request.type)) {
        // A seek of this node's accepted (or cancelled) from another node: only this node pairs it.
        state_.lobby().post_request(std::move(actor), std::move(request));
        return;
    }
    auto game = state_.game_for(request.game_id, actor.player_id);
    if (!game && game.error().rfind(owned_elsewhere_prefix, 0) == 0) {
        // Another node owns the game now: the origin finds it when the client sends this again.
        client->not_here(request.game_id);
        client->send(error_frame(protocol::ErrorCode::server_restarting, lost_room_text, request.id,
                                 request.game_id));
    } else if (!game) {
        component_logger("relay")->error("game {} for node {}: {}", request.game_id, record.from,
                                         game.error());
        client->send(error_frame(protocol::ErrorCode::internal_error,
                                 "the server could not load this game; try again", request.id,
                                 request.game_id));
    } else if (game->room) {
        game->room->post_request(std::move(actor), std::move(request));
    } else if (game->finished) {
        // A finished game this node released meanwhile, asked about by someone without a seat.
        state_.answer_finished(*game->finished, actor, request);
    } else {
        client->send(error_frame(protocol::ErrorCode::no_such_game, "there is no such game",
                                 request.id, request.game_id));
    }
}

}  // namespace server
