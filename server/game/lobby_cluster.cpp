// Cluster mode (issue 27): the lobby shared between nodes (lobby.h). Each node publishes its own
// seeks and games on the lobby channel (Relay::publish_lobby) and mirrors the others'. A seek is
// paired only by the node that holds it: accepting (or cancelling) another node's seek relays the
// request there, where the lobby strand takes acceptances one at a time.
#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "protocol/time_control.h"
#include "server/game/lobby.h"
#include "server/game/relay.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"

namespace server {

using nlohmann::json;

void Lobby::post_remote(json records) {
    boost::asio::post(strand_, [self = shared_from_this(), records = std::move(records)] {
        for (const auto& record : records) {
            guarded(
                "lobby", [&] { return "a record of node " + record.value("node", "?"); },
                [&] { self->remote(record); });
        }
    });
}

void Lobby::post_node_gone(std::string node) {
    boost::asio::post(strand_, [self = shared_from_this(), node = std::move(node)] {
        guarded(
            "lobby", [&] { return "node " + node + " gone"; }, [&] { self->node_gone(node); });
    });
}

void Lobby::remote(const json& record) {
    const auto kind = record.value("k", "");
    const auto node = record.value("node", "");
    if (kind == "sync") {
        share_everything();
    } else if (kind == "seek") {
        auto seek = seek_from_record(record);
        if (!seek) {
            component_logger("lobby")->warn("node {}: a seek record that says too little", node);
            return;
        }
        seek->node = node;
        auto it = std::find_if(seeks_.begin(), seeks_.end(),
                               [&](const Seek& s) { return s.id == seek->id; });
        if (it != seeks_.end()) {
            if (!it->node.empty()) {
                *it = std::move(*seek);  // told again (a sync)
            }
            return;
        }
        if (!seek->is_private) {
            send_to_subscribers(make_frame(protocol::seek_added_message(seek->json)));
        }
        seeks_.push_back(std::move(*seek));
    } else if (kind == "unseek") {
        const auto seek_id = record.value("seek_id", "");
        auto it = std::find_if(seeks_.begin(), seeks_.end(),
                               [&](const Seek& s) { return s.id == seek_id && s.node == node; });
        if (it != seeks_.end()) {
            const bool listed = !it->is_private;
            seeks_.erase(it);
            if (listed) {
                send_to_subscribers(make_frame(protocol::seek_removed_message(seek_id)));
            }
        }
    } else if (kind == "game" && record.contains("game_id") && record["game_id"].is_string()) {
        const auto game_id = record["game_id"].get<std::string>();
        const bool ours = games_.count(game_id) > 0 && game_nodes_.count(game_id) == 0;
        if (!ours) {  // a late word of a game's former owner changes nothing here
            game_summary(game_id, record.value("summary", json()), node);
        }
    }
}

void Lobby::node_gone(const std::string& node) {
    // Its seeks leave the store too (issue 42), so that an invitation's page says it is gone;
    // every node that sees it go deletes them, which is harmless. The write is queued: nothing
    // waits for it here.
    if (!node.empty()) {
        store_async(DeleteSeek{"", node});
    }
    for (auto it = seeks_.begin(); it != seeks_.end();) {
        if (it->node != node) {
            ++it;
            continue;
        }
        if (!it->is_private) {
            send_to_subscribers(make_frame(protocol::seek_removed_message(it->id)));
        }
        it = seeks_.erase(it);
    }
    std::vector<std::string> games;
    for (const auto& [game_id, owner] : game_nodes_) {
        if (owner == node) {
            games.push_back(game_id);
        }
    }
    for (const auto& game_id : games) {
        game_summary(game_id, json(), node);
    }
}

void Lobby::share(const json& record) const {
    auto* relay = state_.relay();
    if (!relay) {
        return;
    }
    relay->publish_lobby(record);
}

void Lobby::share_everything() const {
    for (const auto& seek : seeks_) {
        if (seek.node.empty()) {
            share(seek_record(seek));
        }
    }
    for (const auto& [game_id, listed] : games_) {
        if (game_nodes_.count(game_id) == 0) {
            share({{"k", "game"}, {"game_id", game_id}, {"summary", listed.summary}});
        }
    }
}

json Lobby::seek_record(const Seek& seek) const {
    json record{{"k", "seek"},
                {"seek", seek.json},
                {"variant", core::variant_name(seek.variant)},
                {"rules", core::rule_set_name(seek.rules)},
                {"rounds", seek.rounds},
                {"private", seek.is_private},
                {"rated", seek.rated},
                {"creator_rating", seek.creator_rating},
                {"clock", protocol::time_control_text(seek.clock)},
                {"created_at", seek.created_at},
                {"creator",
                 {{"id", seek.creator.player_id},
                  {"name", seek.creator.name},
                  {"account", seek.creator.account},
                  {"ip", seek.creator.ip}}}};
    if (seek.side) {
        record["side"] = core::side_name(seek.variant, *seek.side);
    }
    if (seek.rating_min) {
        record["rating_min"] = *seek.rating_min;
    }
    if (seek.rating_max) {
        record["rating_max"] = *seek.rating_max;
    }
    return record;
}

std::optional<Lobby::Seek> Lobby::seek_from_record(const json& record) {
    if (!record.contains("seek") || !record["seek"].is_object() || !record.contains("creator") ||
        !record["creator"].is_object()) {
        return std::nullopt;
    }
    try {
        Seek seek;
        seek.json = record["seek"];
        seek.id = seek.json.value("seek_id", "");
        const auto variant = core::parse_variant(record.value("variant", ""));
        const auto rules = core::parse_rule_set(record.value("rules", ""));
        auto clock = protocol::parse_time_control(record.value("clock", ""));
        if (seek.id.empty() || !variant || !rules || !clock) {
            return std::nullopt;
        }
        seek.variant = *variant;
        seek.rules = *rules;
        seek.clock = *clock;
        if (record.contains("side")) {
            seek.side = core::parse_side(seek.variant, record.value("side", ""));
        }
        seek.rounds = record.value("rounds", 3);
        seek.is_private = record.value("private", false);
        seek.rated = record.value("rated", false);
        if (record.contains("rating_min")) {
            seek.rating_min = record["rating_min"].get<int>();
        }
        if (record.contains("rating_max")) {
            seek.rating_max = record["rating_max"].get<int>();
        }
        seek.creator_rating = record.value("creator_rating", 0);
        seek.created_at = record.value("created_at", std::int64_t{0});
        const auto& creator = record["creator"];
        seek.creator.player_id = creator.value("id", "");
        seek.creator.name = creator.value("name", "");
        seek.creator.account = creator.value("account", false);
        seek.creator.ip = creator.value("ip", "");
        return seek;
    } catch (const json::exception&) {
        return std::nullopt;
    }
}

void Lobby::relay_to_holder(const Actor& actor, const Seek& seek, protocol::RequestType type,
                            const json& id) {
    auto client = actor.client.lock();
    auto* relay = state_.relay();
    if (!client || !relay) {
        return;
    }
    json text{{"type", protocol::request_type_name(type)}, {"seek_id", seek.id}};
    if (!id.is_null()) {
        text["id"] = id;
    }
    const auto written = text.dump();
    auto parsed = protocol::parse_request(written);
    if (auto* request = std::get_if<protocol::Request>(&parsed)) {
        relay->forward(seek.node, client, actor, *request, written);
    }
}

}  // namespace server
