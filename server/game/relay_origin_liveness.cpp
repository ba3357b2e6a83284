// The origin's liveness (relay_origin.h): whether the owners this node relays to still hold the
// games watched from here and still answer, and what their watchers and requesters here are told
// when one does not. The sweeps run on the sending thread, between two flushes; whether the owners
// still listen at all the relay's sweep asks (relay.cpp).
#include <chrono>
#include <set>

#include "server/cluster/leases.h"
#include "server/game/relay_origin.h"
#include "server/game/room.h"
#include "server/game/server_state.h"
#include "server/log.h"

namespace server {

using cluster::RelayKind;
using Outgoing = RelayTransport::Outgoing;

namespace {

// Tells each (client, game) that the game's room at `owner` is lost to it: its session relays that
// game no more, and the client, told server_restarting, asks again (and is looked up again).
void tell_lost(const std::vector<std::pair<std::shared_ptr<Client>, std::string>>& told,
               const std::string& owner) {
    for (const auto& [client, game_id] : told) {
        client->watching_elsewhere(game_id, owner, false);
        client->send(
            error_frame(protocol::ErrorCode::server_restarting, lost_room_text, nullptr, game_id));
    }
}

}  // namespace

void RelayOrigin::owner_lost(const std::string& owner) {
    std::vector<std::pair<std::shared_ptr<Client>, std::string>> told;
    std::deque<Pending> unanswered;
    {
        std::lock_guard lock(mutex_);
        if (auto it = awaiting_word_.find(owner); it != awaiting_word_.end()) {
            // Those still being published are flush's to answer (or the owner's).
            std::deque<Pending> unpublished;
            for (auto& pending : it->second) {
                (pending.published ? unanswered : unpublished).push_back(std::move(pending));
            }
            it->second.swap(unpublished);
            awaiting_now_.fetch_sub(unanswered.size(), std::memory_order_relaxed);
            // Answered server_restarting below: should the owner answer them after all (it woke),
            // those replies are not delivered.
            for (const auto& pending : unanswered) {
                auto local = locals_.find(pending.client);
                if (pending.request_id.empty() || local == locals_.end()) {
                    continue;
                }
                auto& ids = local->second.answered[owner];
                if (ids.size() < answered_kept) {
                    ids.insert(pending.request_id);
                }
            }
            if (it->second.empty()) {
                awaiting_word_.erase(it);
            }
        }
        if (auto it = watched_elsewhere_.find(owner); it != watched_elsewhere_.end()) {
            for (const auto& [client_id, game_id] : it->second) {
                if (auto local = locals_.find(client_id); local != locals_.end()) {
                    if (auto client = local->second.client.lock()) {
                        told.emplace_back(std::move(client), game_id);
                    }
                }
            }
            watched_elsewhere_.erase(it);
        }
    }
    if (!told.empty() || !unanswered.empty()) {
        component_logger("relay")->warn(
            "node {} does not answer: {} watch(es) of its games told to reconnect, {} request(s) "
            "answered server_restarting",
            owner, told.size(), unanswered.size());
    }
    for (const auto& pending : unanswered) {
        pending.answer();
    }
    tell_lost(told, owner);
}

void RelayOrigin::games_lost(const std::string& owner, const std::set<std::string>& games) {
    std::vector<std::pair<std::shared_ptr<Client>, std::string>> told;
    {
        std::lock_guard lock(mutex_);
        auto it = watched_elsewhere_.find(owner);
        if (it == watched_elsewhere_.end()) {
            return;
        }
        std::erase_if(it->second, [&](const auto& watch) {
            const auto& [client_id, game_id] = watch;
            if (!games.count(game_id)) {
                return false;
            }
            if (auto local = locals_.find(client_id); local != locals_.end()) {
                if (auto client = local->second.client.lock()) {
                    told.emplace_back(std::move(client), game_id);
                }
            }
            return true;
        });
    }
    if (!told.empty()) {
        component_logger("relay")->warn(
            "node {} holds the lease of {} watched game(s) no more: {} watch(es) told to "
            "reconnect",
            owner, games.size(), told.size());
    }
    tell_lost(told, owner);
}

void RelayOrigin::heard_from(const std::string& node) {
    if (awaiting_now_.load(std::memory_order_relaxed) == 0) {
        return;  // the common road: no lock
    }
    std::deque<Pending> answered;  // destroyed outside the lock
    std::lock_guard lock(mutex_);
    if (auto it = awaiting_word_.find(node); it != awaiting_word_.end()) {
        answered.swap(it->second);
        awaiting_now_.fetch_sub(answered.size(), std::memory_order_relaxed);
        awaiting_word_.erase(it);
    }
}

RelayTransport::Serials RelayOrigin::await_word(const std::string& owner,
                                                const std::vector<Outgoing*>& items) {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(mutex_);
    const auto first = next_serial_;
    for (const auto* item : items) {
        if (item->record.kind == RelayKind::request && item->unheard) {
            awaiting_word_[owner].push_back(Pending{now, next_serial_++, false, item->unheard,
                                                    item->record.client, item->request_id});
            awaiting_now_.fetch_add(1, std::memory_order_relaxed);
        }
    }
    return {first, next_serial_};
}

void RelayOrigin::published(const std::string& owner, RelayTransport::Serials serials, bool heard) {
    if (serials.first == serials.second) {
        return;
    }
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(mutex_);
    auto it = awaiting_word_.find(owner);
    if (it == awaiting_word_.end()) {
        return;  // heard from meanwhile
    }
    const auto ours = [&](const Pending& pending) {
        return pending.serial >= serials.first && pending.serial < serials.second;
    };
    if (heard) {
        for (auto& pending : it->second) {
            if (ours(pending)) {
                pending.published = true;
                pending.sent = now;
            }
        }
        return;
    }
    awaiting_now_.fetch_sub(std::erase_if(it->second, ours), std::memory_order_relaxed);
    if (it->second.empty()) {
        awaiting_word_.erase(it);
    }
}

void RelayOrigin::all_owners_lost() {
    std::vector<std::string> owners;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [owner, watches] : watched_elsewhere_) {
            owners.push_back(owner);
        }
    }
    for (const auto& owner : owners) {
        owner_lost(owner);
    }
}

void RelayOrigin::sweep_silent_owners() {
    if (awaiting_now_.load(std::memory_order_relaxed) == 0) {
        return;
    }
    const auto now = std::chrono::steady_clock::now();
    std::vector<std::string> silent;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [owner, pending] : awaiting_word_) {
            // Between two flushes (this thread's): every request waiting was published.
            if (!pending.empty() && pending.front().published &&
                now - pending.front().sent >= relay_request_timeout) {
                silent.push_back(owner);
            }
        }
    }
    for (const auto& owner : silent) {
        component_logger("relay")->warn(
            "node {} sent nothing for {} ms after a request was relayed to it: treated as gone",
            owner, relay_request_timeout.count());
        owner_lost(owner);
    }
}

void RelayOrigin::sweep_leases() {
    auto* leases = state_.leases();
    if (!leases) {
        return;
    }
    std::vector<std::pair<std::string, std::string>> watches;  // (owner, game)
    std::set<std::string> games;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [owner, watched] : watched_elsewhere_) {
            for (const auto& [client_id, game_id] : watched) {
                watches.emplace_back(owner, game_id);
                games.insert(game_id);
            }
        }
    }
    if (games.empty()) {
        return;
    }
    const std::vector<std::string> ids(games.begin(), games.end());
    auto holders = leases->holders(ids);
    if (!holders) {
        component_logger("relay")->warn("cannot read who owns the games watched elsewhere: {}",
                                        holders.error());
        return;
    }
    std::map<std::string, std::string> holder_of;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        holder_of.emplace(ids[i], (*holders)[i]);
    }
    // Expired (a frozen or dead owner renews nothing) or another node's: the owner's room there
    // acts for the game no more, though the owner may still listen on its channel.
    std::map<std::string, std::set<std::string>> lost;
    for (const auto& [owner, game_id] : watches) {
        if (holder_of[game_id] != owner) {
            lost[owner].insert(game_id);
        }
    }
    for (const auto& [owner, lost_games] : lost) {
        games_lost(owner, lost_games);
    }
}

std::vector<std::string> RelayOrigin::watched_owners() {
    std::vector<std::string> owners;
    std::lock_guard lock(mutex_);
    for (const auto& [owner, watches] : watched_elsewhere_) {
        if (!watches.empty()) {
            owners.push_back(owner);
        }
    }
    return owners;
}

}  // namespace server
