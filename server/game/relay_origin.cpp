// The origin's side of the relay (relay_origin.h): requests out, frames back in. What happens when
// an owner does not answer: relay_origin_liveness.cpp.
#include "server/game/relay_origin.h"

#include <set>

#include <nlohmann/json.hpp>

#include "server/game/room.h"

namespace server {

using cluster::RelayKind;
using cluster::RelayRecord;
using Outgoing = RelayTransport::Outgoing;

RelayRecord RelayOrigin::speaking_for(RelayKind kind, const std::string& owner,
                                      const std::shared_ptr<Client>& client, const Actor& actor) {
    {
        std::lock_guard lock(mutex_);
        auto& local = locals_[actor.client_id];
        local.client = client;
        local.owners.insert(owner);
        locals_now_.store(locals_.size(), std::memory_order_relaxed);
    }
    RelayRecord record;
    record.kind = kind;
    record.from = transport_.node_id();
    record.client = actor.client_id;
    record.player_id = actor.player_id;
    record.name = actor.name;
    record.account = actor.account;
    record.lag_ms = actor.lag_ms;
    record.ip = actor.ip;
    return record;
}

void RelayOrigin::forward(const std::string& owner, const std::shared_ptr<Client>& client,
                          const Actor& actor, const protocol::Request& request,
                          const std::string& text) {
    auto record = speaking_for(RelayKind::request, owner, client, actor);
    record.game_id = request.game_id;
    record.text = text;
    std::weak_ptr<Client> weak = client;
    // Answered once, by whichever comes first: nobody heard it, or the owner stayed silent.
    auto answered = std::make_shared<std::atomic<bool>>(false);
    auto outgoing =
        Outgoing::to(owner, std::move(record),
                     [weak, id = request.id, game_id = request.game_id, owner, answered] {
                         if (answered->exchange(true)) {
                             return;
                         }
                         if (auto c = weak.lock()) {
                             c->watching_elsewhere(game_id, owner, false);
                             c->send(error_frame(protocol::ErrorCode::server_restarting,
                                                 lost_room_text, id, game_id));
                         }
                     });
    if (!request.id.is_null()) {
        outgoing.request_id = request.id.dump();
        // The same id asked again of the same owner: its reply is this request's.
        std::lock_guard lock(mutex_);
        auto local = locals_.find(actor.client_id);
        if (local != locals_.end()) {
            if (auto ids = local->second.answered.find(owner);
                ids != local->second.answered.end() && ids->second.erase(outgoing.request_id) &&
                ids->second.empty()) {
                local->second.answered.erase(ids);
            }
        }
    }
    transport_.send(std::move(outgoing));
}

void RelayOrigin::looked_away(const std::string& owner, std::uint64_t client_id,
                              const std::string& game_id) {
    RelayRecord record;
    record.kind = RelayKind::looked_away;
    record.from = transport_.node_id();
    record.client = client_id;
    record.game_id = game_id;
    transport_.send(Outgoing::to(owner, std::move(record)));
}

void RelayOrigin::lag(const std::string& owner, std::uint64_t client_id, const std::string& game_id,
                      int lag_ms) {
    RelayRecord record;
    record.kind = RelayKind::lag;
    record.from = transport_.node_id();
    record.client = client_id;
    record.game_id = game_id;
    record.lag_ms = lag_ms;
    transport_.send(Outgoing::to(owner, std::move(record)));
}

void RelayOrigin::client_gone(std::uint64_t client_id) {
    std::set<std::string> owners;
    {
        std::lock_guard lock(mutex_);
        if (auto it = locals_.find(client_id); it != locals_.end()) {
            owners = std::move(it->second.owners);
            locals_.erase(it);
        }
        for (auto& [owner, watches] : watched_elsewhere_) {
            std::erase_if(watches, [&](const auto& w) { return w.first == client_id; });
        }
        locals_now_.store(locals_.size(), std::memory_order_relaxed);
    }
    for (const auto& owner : owners) {
        RelayRecord record;
        record.kind = RelayKind::gone;
        record.from = transport_.node_id();
        record.client = client_id;
        transport_.send(Outgoing::to(owner, std::move(record)));
    }
}

void RelayOrigin::present(const std::string& holder, const std::shared_ptr<Client>& client,
                          const Actor& actor) {
    transport_.send(Outgoing::to(holder, speaking_for(RelayKind::present, holder, client, actor)));
}

bool RelayOrigin::answered_before(Local& local, const std::string& owner,
                                  const std::string& frame) {
    auto it = local.answered.find(owner);
    if (it == local.answered.end()) {
        return false;  // the common road: nothing answered for this owner, nothing parsed
    }
    const auto parsed = nlohmann::json::parse(frame, nullptr, false);
    if (!parsed.is_object() || !parsed.contains("id") || parsed.at("id").is_null()) {
        return false;
    }
    if (it->second.erase(parsed.at("id").dump()) == 0) {
        return false;
    }
    if (it->second.empty()) {
        local.answered.erase(it);
    }
    return true;
}

void RelayOrigin::deliver(const RelayRecord& record) {
    std::shared_ptr<Client> client;
    {
        std::lock_guard lock(mutex_);
        if (auto it = locals_.find(record.client); it != locals_.end()) {
            if (record.kind == RelayKind::frame &&
                answered_before(it->second, record.from, record.text)) {
                return;
            }
            client = it->second.client.lock();
        }
        if (record.kind == RelayKind::watching) {
            auto& watches = watched_elsewhere_[record.from];
            if (record.on && client) {
                watches.emplace(record.client, record.game_id);
            } else {
                watches.erase({record.client, record.game_id});
            }
        }
    }
    if (!client) {
        return;
    }
    switch (record.kind) {
        case RelayKind::frame:
            client->send(make_frame(record.text));
            break;
        case RelayKind::watching:
            client->watching_elsewhere(record.game_id, record.from, record.on);
            break;
        case RelayKind::close:
            client->close_after_queued(static_cast<std::uint16_t>(record.code));
            break;
        default:
            break;
    }
}

}  // namespace server
