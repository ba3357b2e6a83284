// Cluster mode (issue 27): the lobby shared between nodes (lobby.h). Each node publishes its own
// seeks and games on the lobby channel (Relay::publish_lobby) and mirrors the others'. A seek is
// paired only by the node that holds it: accepting (or cancelling) another node's seek relays the
// request there, where the lobby strand takes acceptances one at a time. Records are at most
// once, so the mirrors converge by rounds of each node's whole state, which replace what the
// others show of it, and by digests that tell a node its mirror of another differs (issue 42).
#include <cstdint>
#include <string_view>

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
    if (!digest_armed_) {
        arm_digest();  // another node is there to compare with
    }
    if (kind == "sync") {
        // Everyone's (a node that started, or whose pub/sub connection came back), or this
        // node's alone (a node whose mirror of it differs). A node of an earlier version answers
        // every sync with all its records, which adds and does no harm.
        const auto to = record.value("to", "");
        auto* relay = state_.relay();
        if (to.empty() || (relay && to == relay->node_id())) {
            share_state();
        }
        if (to.empty()) {
            // Its connection came back (or it started): what it published meanwhile may be
            // lost too, and its own request for this node's records may have been the one that
            // was (a publisher's first PUBLISH after Redis restarted can fail), so it is asked
            // for its state in turn.
            share({{"k", "sync"}, {"to", node}});
        }
    } else if (kind == "state") {
        mirror_state(node, record);
    } else if (kind == "digest") {
        if (record.value("digest", "") != digest_of(node)) {
            component_logger("lobby")->info(
                "node {}: its lobby differs from what this node shows of it; asking for its state",
                node);
            share({{"k", "sync"}, {"to", node}});
        }
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
                note_held(node, seek->id, false);
                *it = std::move(*seek);  // told again (a state round)
            }
            return;
        }
        note_held(node, seek->id, false);
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
            auto summary = record.value("summary", json());
            if (!summary.is_null()) {
                note_held(node, game_id, true);
            }
            game_summary(game_id, std::move(summary), node);
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
    mirroring_.erase(node);
    replace_mirror(node, Mirroring{});  // it holds nothing now
}

void Lobby::share(const json& record) const {
    auto* relay = state_.relay();
    if (!relay) {
        return;
    }
    relay->publish_lobby(record);
}

// A round's ids are taken at once, and its first page goes out at once: whatever this node
// publishes after it (a new seek, a finished game) the receivers count as held, or removed,
// as it says. The other pages follow state_page_interval apart, each with what is still held of
// its ids, so that no message grows with the lobby and the relay's outbox
// (relay_outbox_per_node) never holds more than a page or two of a round.
void Lobby::share_state() {
    if (sharing_.active) {
        sharing_.again = true;
        return;
    }
    sharing_.active = true;
    sharing_.again = false;
    ++sharing_.round;
    sharing_.page = 0;
    sharing_.seeks.clear();
    sharing_.games.clear();
    for (const auto& seek : seeks_) {
        if (seek.node.empty()) {
            sharing_.seeks.push_back(seek.id);
        }
    }
    for (const auto& [game_id, listed] : games_) {
        if (game_nodes_.count(game_id) == 0) {
            sharing_.games.push_back(game_id);
        }
    }
    share_state_page();
}

void Lobby::share_state_page() {
    std::map<std::string, const Seek*> own;
    if (!sharing_.seeks.empty()) {
        for (const auto& seek : seeks_) {
            if (seek.node.empty()) {
                own.emplace(seek.id, &seek);
            }
        }
    }
    json seeks = json::array();
    json games = json::array();
    std::size_t records = 0;
    while (records < state_page_records && !sharing_.seeks.empty()) {
        const auto seek_id = std::move(sharing_.seeks.front());
        sharing_.seeks.pop_front();
        if (auto it = own.find(seek_id); it != own.end()) {
            share(seek_record(*it->second));
            seeks.push_back(seek_id);
            ++records;
        }
    }
    while (records < state_page_records && !sharing_.games.empty()) {
        const auto game_id = std::move(sharing_.games.front());
        sharing_.games.pop_front();
        auto it = games_.find(game_id);
        if (it != games_.end() && game_nodes_.count(game_id) == 0) {
            share({{"k", "game"}, {"game_id", game_id}, {"summary", it->second.summary}});
            games.push_back(game_id);
            ++records;
        }
    }
    const bool last = sharing_.seeks.empty() && sharing_.games.empty();
    share({{"k", "state"},
           {"round", sharing_.round},
           {"page", sharing_.page},
           {"last", last},
           {"seeks", std::move(seeks)},
           {"games", std::move(games)}});
    ++sharing_.page;
    if (!last) {
        page_timer_.expires_after(state_page_interval);
        page_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
            auto self = weak.lock();
            if (ec || !self) {
                return;  // shutting down
            }
            const bool sent = guarded(
                "lobby", [] { return std::string("a page of the lobby's state"); },
                [&] { self->share_state_page(); });
            if (!sent) {
                self->sharing_.active = false;  // the next sync or digest starts another
            }
        });
        return;
    }
    sharing_.active = false;
    if (sharing_.again) {
        share_state();
    }
}

// Pages are taken in order, from the first: a page that comes without those before it (a
// message lost) spoils its round, and what this lobby shows stays as it is until the next one.
void Lobby::mirror_state(const std::string& node, const json& record) {
    const auto round = record.value("round", std::uint64_t{0});
    const auto page = record.value("page", std::uint64_t{0});
    auto it = mirroring_.find(node);
    if (page == 0) {
        it = mirroring_.insert_or_assign(node, Mirroring{round, 0, {}, {}}).first;
    } else if (it == mirroring_.end() || it->second.round != round ||
               it->second.next_page != page) {
        component_logger("lobby")->warn(
            "node {}: page {} of its lobby's state {} came without the pages before it; not used",
            node, page, round);
        if (it != mirroring_.end()) {
            mirroring_.erase(it);
        }
        return;
    }
    auto& held = it->second;
    ++held.next_page;
    for (const auto* field : {"seeks", "games"}) {
        if (!record.contains(field) || !record[field].is_array()) {
            component_logger("lobby")->warn("node {}: a lobby state page without {}", node, field);
            mirroring_.erase(it);
            return;
        }
        auto& ids = std::string_view(field) == "seeks" ? held.seeks : held.games;
        for (const auto& id : record[field]) {
            if (id.is_string()) {
                ids.insert(id.get<std::string>());
            }
        }
    }
    if (record.value("last", false)) {
        const auto done = std::move(held);
        mirroring_.erase(it);
        replace_mirror(node, done);
    }
}

void Lobby::replace_mirror(const std::string& node, const Mirroring& held) {
    std::size_t seeks_gone = 0;
    for (auto it = seeks_.begin(); it != seeks_.end();) {
        if (it->node != node || held.seeks.count(it->id) > 0) {
            ++it;
            continue;
        }
        if (!it->is_private) {
            send_to_subscribers(make_frame(protocol::seek_removed_message(it->id)));
        }
        it = seeks_.erase(it);
        ++seeks_gone;
    }
    std::vector<std::string> games;
    for (const auto& [game_id, owner] : game_nodes_) {
        if (owner == node && held.games.count(game_id) == 0) {
            games.push_back(game_id);
        }
    }
    for (const auto& game_id : games) {
        game_summary(game_id, json(), node);
    }
    if (seeks_gone > 0 || !games.empty()) {
        component_logger("lobby")->info(
            "node {}: {} seek(s) and {} game(s) it no longer holds leave the lobby", node,
            seeks_gone, games.size());
    }
}

void Lobby::note_held(const std::string& node, const std::string& id, bool game) {
    if (auto it = mirroring_.find(node); it != mirroring_.end()) {
        (game ? it->second.games : it->second.seeks).insert(id);
    }
}

namespace {

// FNV-1a, 64 bits: the digest's hash of one seek or game.
std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 14695981039346656037ULL) {
    for (const unsigned char c : text) {
        hash ^= c;
        hash *= 1099511628211ULL;
    }
    return hash;
}

}  // namespace

// The sum of the items' hashes, so the order they are held in does not matter. A game's summary
// is hashed as it travels (dumped, invalid UTF-8 replaced), once per change of it.
std::string Lobby::digest_of(const std::string& node) const {
    std::uint64_t sum = 0;
    std::size_t seeks = 0;
    std::size_t games = 0;
    for (const auto& seek : seeks_) {
        if (seek.node == node) {
            sum += fnv1a(seek.id, fnv1a("s"));
            ++seeks;
        }
    }
    for (const auto& [game_id, listed] : games_) {
        const auto owner = game_nodes_.find(game_id);
        if ((owner == game_nodes_.end() ? std::string() : owner->second) != node) {
            continue;
        }
        if (!listed.hash) {
            listed.hash = fnv1a(listed.summary.dump(-1, ' ', false, json::error_handler_t::replace),
                                fnv1a(game_id, fnv1a("g")));
        }
        sum += *listed.hash;
        ++games;
    }
    return std::to_string(seeks) + " " + std::to_string(games) + " " + std::to_string(sum);
}

void Lobby::arm_digest() {
    digest_armed_ = true;
    digest_timer_.expires_after(anti_entropy_interval);
    digest_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        auto self = weak.lock();
        if (ec || !self) {
            return;  // shutting down
        }
        self->arm_digest();
        guarded(
            "lobby", [] { return std::string("the lobby's digest"); },
            [&] {
                if (!self->sharing_.active) {  // a round says more, and is not over yet
                    self->share({{"k", "digest"}, {"digest", self->digest_of("")}});
                }
            });
    });
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
