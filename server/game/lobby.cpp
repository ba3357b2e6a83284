#include "server/game/lobby.h"

#include <algorithm>
#include <optional>
#include <string>

#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "server/blocking_pool.h"
#include "server/game/game_factory.h"
#include "server/game/identity.h"
#include "server/game/room.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;

// Says so when `actor` already sits in as many unfinished games as one player may (a new seek, an
// acceptance or a game against the computer is then refused with rate_limited).
std::optional<std::string> Lobby::too_many_games(const Actor& actor,
                                                 const AskerFacts& facts) const {
    // Cluster mode: the player's games on every node, read before the request came (the store);
    // else this node's rooms (memory).
    auto games = facts.unfinished_games ? *facts.unfinished_games
                                        : state_.unfinished_games_here(actor.player_id).size();
    if (auto it = creating_.find(actor.player_id); it != creating_.end()) {
        games += static_cast<std::size_t>(it->second);
    }
    if (static_cast<long long>(games) < state_.limits().games_per_player) {
        return std::nullopt;
    }
    return "you are already playing " + std::to_string(games) + " games; finish one first";
}

void Lobby::count_creating(const std::vector<Actor>& players, int delta) {
    for (const auto& player : players) {
        if ((creating_[player.player_id] += delta) <= 0) {
            creating_.erase(player.player_id);
        }
    }
}

Lobby::Lobby(ServerState& state, boost::asio::io_context& io)
    : state_(state),
      strand_(boost::asio::make_strand(io)),
      expiry_timer_(strand_),
      changes_timer_(strand_),
      page_timer_(strand_),
      digest_timer_(strand_) {}

// Each handler on the lobby strand runs guarded: an exception is logged with who asked and the
// lobby goes on serving; the asker gets internal_error.
void Lobby::post_request(Actor actor, protocol::Request request, AskerFacts facts) {
    boost::asio::post(strand_, [self = shared_from_this(), actor = std::move(actor),
                                request = std::move(request), facts = std::move(facts)] {
        const auto context = [&] {
            return "client " + std::to_string(actor.client_id) + " player " + actor.player_id +
                   ": " + std::string(protocol::request_type_name(request.type));
        };
        if (!guarded("lobby", context, [&] { self->handle(actor, request, facts); })) {
            actor.send(error_frame(ErrorCode::internal_error,
                                   "the lobby could not do that; try again", request.id));
        }
    });
}

void Lobby::post_request_reading(Actor actor, protocol::Request request) {
    if (!needs_asker_facts(state_, actor, request)) {
        post_request(std::move(actor), std::move(request));
        return;
    }
    const auto id = request.id;
    const bool handed = state_.blocking().run_then(
        strand_, [&state = state_, actor] { return read_asker_facts(state, actor); },
        [self = shared_from_this(), actor, request](core::Expected<AskerFacts> facts) {
            if (!facts) {
                component_logger("lobby")->error("client {} player {}: {}", actor.client_id,
                                                 actor.player_id, facts.error());
                actor.send(error_frame(ErrorCode::internal_error,
                                       "the server could not read your ratings; try again",
                                       request.id));
                return;
            }
            self->post_request(actor, request, std::move(*facts));
        });
    if (!handed) {
        actor.send(error_frame(ErrorCode::rate_limited, std::string(pool_busy_text), id));
    }
}

void Lobby::post_game_summary(std::string game_id, json summary) {
    boost::asio::post(strand_, [self = shared_from_this(), game_id = std::move(game_id),
                                summary = std::move(summary)]() mutable {
        guarded(
            "lobby", [&] { return "game " + game_id + " summary"; },
            [&] { self->game_summary(game_id, std::move(summary)); });
    });
}

void Lobby::game_summary(const std::string& game_id, json summary, const std::string& node) {
    if (node.empty()) {
        game_nodes_.erase(game_id);  // this node's (perhaps taken over from another)
        share({{"k", "game"}, {"game_id", game_id}, {"summary", summary}});
    } else if (summary.is_null()) {
        game_nodes_.erase(game_id);
    } else {
        game_nodes_[game_id] = node;
    }
    auto it = games_.find(game_id);
    if (summary.is_null()) {
        if (it == games_.end()) {
            return;
        }
        newest_.erase(it->second.order);
        games_.erase(it);
        changed_.erase(game_id);
        send_to_subscribers(make_frame(protocol::game_removed_message(game_id)));
        return;
    }
    if (it == games_.end()) {
        const auto order = next_order_++;
        newest_[order] = game_id;
        send_to_subscribers(make_frame(protocol::game_added_message(summary)));
        games_.emplace(game_id, ListedGame{std::move(summary), order, {}});
        return;
    }
    if (it->second.summary == summary) {
        return;
    }
    it->second.summary = std::move(summary);
    it->second.hash.reset();
    changed_.insert(game_id);
    arm_changes();
}

void Lobby::arm_changes() {
    if (changes_armed_) {
        return;
    }
    changes_armed_ = true;
    changes_timer_.expires_after(changes_interval);
    changes_timer_.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
        auto self = weak.lock();
        if (ec || !self) {
            return;  // shutting down
        }
        guarded(
            "lobby", [] { return std::string("game changes"); }, [&] { self->flush_changes(); });
    });
}

void Lobby::flush_changes() {
    changes_armed_ = false;
    json games = json::array();
    for (const auto& game_id : changed_) {
        if (auto it = games_.find(game_id); it != games_.end()) {
            games.push_back(it->second.summary);
        }
    }
    changed_.clear();
    if (!games.empty()) {
        send_to_subscribers(make_frame(protocol::game_changed_message(games)));
    }
}

void Lobby::handle(const Actor& actor, const protocol::Request& request, const AskerFacts& facts) {
    switch (request.type) {
        case RequestType::lobby_subscribe:
            subscribers_[actor.client_id] = actor.client;
            actor.send(lobby_frame(request.id));
            break;
        case RequestType::lobby_unsubscribe:
            subscribers_.erase(actor.client_id);
            break;
        case RequestType::lobby_games:
            actor.send(make_frame(protocol::lobby_games_message(
                static_cast<std::size_t>(request.offset), games_.size(),
                games_page(static_cast<std::size_t>(request.offset),
                           static_cast<std::size_t>(request.limit)),
                request.id)));
            break;
        case RequestType::seek_create:
            create_seek(actor, request, facts);
            break;
        case RequestType::seek_cancel:
            cancel_seek(actor, request);
            break;
        case RequestType::seek_accept:
            accept_seek(actor, request.seek_id, request.id, facts);
            break;
        case RequestType::quick_pair:
            quick_pair(actor, request, facts);
            break;
        default:
            actor.send(error_frame(ErrorCode::internal_error, "not a lobby request", request.id));
            break;
    }
}

void Lobby::create_seek(const Actor& actor, const protocol::Request& request,
                        const AskerFacts& facts) {
    if (request.computer) {
        play_computer(actor, request, facts);
        return;
    }
    const auto mine = std::count_if(seeks_.begin(), seeks_.end(), [&](const Seek& s) {
        return s.creator.player_id == actor.player_id;
    });
    if (mine >= max_seeks_per_player) {
        actor.send(error_frame(
            ErrorCode::rate_limited,
            "at most " + std::to_string(max_seeks_per_player) + " open seeks per player",
            request.id));
        return;
    }
    const auto from_address =
        actor.ip.empty() ? 0 : std::count_if(seeks_.begin(), seeks_.end(), [&](const Seek& s) {
            return s.creator.ip == actor.ip;
        });
    if (from_address >= state_.limits().seeks_per_ip) {
        actor.send(make_frame(
            protocol::error_message(ErrorCode::rate_limited,
                                    "at most " + std::to_string(state_.limits().seeks_per_ip) +
                                        " open seeks from one address",
                                    request.id)));
        return;
    }
    if (auto busy = too_many_games(actor, facts)) {
        actor.send(error_frame(ErrorCode::rate_limited, *busy, request.id));
        return;
    }
    if (auto refused = seek_refusal(actor, request)) {
        actor.send(error_frame(*refused, request.id));
        return;
    }
    Seek seek;
    seek.id = random_id("s_");
    seek.variant = request.variant;
    seek.rules = request.rules;
    const bool sniderman = request.variant == core::VariantId::sniderman;
    // In Sniderman the players are not sides: the coin toss and each round's choice decide.
    seek.side = sniderman ? std::nullopt : request.side;
    seek.rounds = request.rounds;
    seek.is_private = request.is_private;
    seek.clock = request.clock;
    seek.creator = actor;
    seek.created_at = unix_now();
    seek.json = {{"seek_id", seek.id},
                 {"variant", core::variant_name(seek.variant)},
                 {"rules", core::rule_set_name(seek.rules)},
                 {"side", seek.side ? json(core::side_name(seek.variant, *seek.side)) : "random"},
                 {"private", seek.is_private},
                 {"clock", protocol::time_control_json(seek.clock)},
                 {"creator", {{"id", actor.player_id}, {"name", actor.name}}},
                 {"created_at", seek.created_at}};
    if (sniderman) {
        seek.json["rounds"] = seek.rounds;
    }
    rate_seek(seek, actor, request, facts);
    if (seek.is_private) {
        const auto ttl = state_.limits().invite_ttl;
        seek.expires = std::chrono::steady_clock::now() + ttl;
        seek.json["expires_at"] = seek.created_at + ttl.count();
    }
    // The creator hears of the seek once it is stored, so an invitation link works the moment it is
    // shown (GET /api/seeks/<id> reads the store); a seek that cannot be stored is withdrawn.
    const auto holder = state_.holder();  // whose it is, so that a dead node's seeks go
    state_.store().commit(
        {SaveSeek{{seek.id, protocol::to_text(seek.json), holder.node, holder.run}}},
        [self = shared_from_this(), actor,
         created = make_frame(protocol::seek_created_message(seek.json, request.id)),
         seek_id = seek.id, id = request.id](const core::Status& stored) {
            if (stored) {
                actor.send(created);
                return;
            }
            component_logger("lobby")->error("seek {} not stored: {}", seek_id, stored.error());
            boost::asio::post(self->strand_, [self, actor, seek_id, id] {
                self->remove_seek(seek_id);
                actor.send(error_frame(ErrorCode::internal_error,
                                       "the seek could not be saved; try again", id));
            });
        });
    component_logger("lobby")->info(
        "client {} player {}: seek {} {}{}", actor.client_id, actor.player_id, seek.id,
        protocol::to_text(seek.json["variant"]), seek.is_private ? " (private)" : "");
    if (!seek.is_private) {
        send_to_subscribers(make_frame(protocol::seek_added_message(seek.json)));
    }
    share(seek_record(seek));
    seeks_.push_back(std::move(seek));
    arm_expiry();
}

void Lobby::cancel_seek(const Actor& actor, const protocol::Request& request) {
    auto it = std::find_if(seeks_.begin(), seeks_.end(),
                           [&](const Seek& s) { return s.id == request.seek_id; });
    if (it == seeks_.end() || it->creator.player_id != actor.player_id) {
        actor.send(
            error_frame(ErrorCode::no_such_seek, "you have no open seek with this id", request.id));
        return;
    }
    if (!it->node.empty()) {
        relay_to_holder(actor, *it, RequestType::seek_cancel, request.id);  // cluster mode
        return;
    }
    remove_seek(request.seek_id);
    actor.send(make_frame(protocol::seek_cancelled_message(request.seek_id, request.id)));
}

void Lobby::accept_seek(const Actor& actor, const std::string& seek_id, const json& id,
                        const AskerFacts& facts, bool waited) {
    auto it =
        std::find_if(seeks_.begin(), seeks_.end(), [&](const Seek& s) { return s.id == seek_id; });
    if (it == seeks_.end() && state_.relay() && !waited) {
        auto timer = std::make_shared<boost::asio::steady_timer>(strand_, unknown_seek_wait);
        timer->async_wait([self = shared_from_this(), timer, actor, seek_id, id,
                           facts](const boost::system::error_code& ec) {
            if (!ec) {
                guarded(
                    "lobby", [&] { return "seek " + seek_id + " accepted again"; },
                    [&] { self->accept_seek(actor, seek_id, id, facts, true); });
            }
        });
        return;
    }
    if (it == seeks_.end()) {
        actor.send(make_frame(
            protocol::error_message(ErrorCode::no_such_seek, "this seek is no longer open", id)));
        return;
    }
    if (it->creator.player_id == actor.player_id) {
        actor.send(make_frame(
            protocol::error_message(ErrorCode::own_seek, "you cannot accept your own seek", id)));
        return;
    }
    if (!it->node.empty()) {
        // Cluster mode: another node holds the seek, and only it pairs it.
        relay_to_holder(actor, *it, RequestType::seek_accept, id);
        return;
    }
    if (auto busy = too_many_games(actor, facts)) {
        actor.send(error_frame(ErrorCode::rate_limited, *busy, id));
        return;
    }
    if (auto refused = accept_refusal(actor, *it, facts)) {
        actor.send(error_frame(*refused, id));
        return;
    }
    Seek seek = *it;
    // The creator's newest open connection hears of the game (the one that made the seek may be
    // gone: a reload).
    if (seek.creator.client.expired()) {
        if (auto other = connection_of(seek.creator.player_id, seek.creator.client_id)) {
            seek.creator = *other;
        }
    }
    GameSpec spec;
    spec.variant = seek.variant;
    spec.rules = seek.rules;
    spec.rounds = seek.rounds;
    spec.is_private = seek.is_private;
    spec.rated = seek.rated;
    spec.clock = seek.clock;
    bool creator_first = true;
    if (seek.variant != core::VariantId::sniderman) {
        creator_first = seek.side ? *seek.side == core::Side::first : random_below(2) == 0;
    }
    spec.seats = creator_first ? std::vector{seek.creator.player_id, actor.player_id}
                               : std::vector{actor.player_id, seek.creator.player_id};
    std::vector<Actor> players =
        creator_first ? std::vector{seek.creator, actor} : std::vector{actor, seek.creator};
    // The seek leaves the book now, before its game is created off the strand (the players' names
    // are read and, in cluster mode, the game's lease is taken: both may block): nobody else pairs
    // it and its creator cannot cancel it half-way; it comes back if the game is not created or
    // not stored. The subscribers hear of its removal only once the game is stored.
    seeks_.erase(it);
    count_creating(players, 1);
    const bool handed = state_.blocking().run_then(
        strand_, [&games = state_.games(), spec] { return games.prepare(spec); },
        [self = shared_from_this(), seek, players, actor,
         id](core::Expected<PreparedGame> prepared) mutable {
            const bool ok = guarded(
                "lobby", [&] { return "seek " + seek.id + " accepted"; },
                [&] {
                    self->seek_game_prepared(seek, std::move(players), actor, id,
                                             std::move(prepared));
                });
            if (!ok) {
                self->count_creating(players, -1);
                self->put_back(seek);
                actor.send(error_frame(ErrorCode::internal_error,
                                       "the game could not be created; try again", id));
            }
        });
    if (!handed) {
        count_creating(players, -1);
        put_back(std::move(seek));
        actor.send(error_frame(ErrorCode::rate_limited, std::string(pool_busy_text), id));
    }
}

void Lobby::seek_game_prepared(Seek seek, std::vector<Actor> players, Actor actor, json id,
                               core::Expected<PreparedGame> prepared) {
    if (!prepared) {
        // (As a handler's exception is logged: who asked, what, and why it failed.)
        component_logger("lobby")->error("client {} player {}: seek_accept of seek {}: {}",
                                         actor.client_id, actor.player_id, seek.id,
                                         prepared.error());
        count_creating(players, -1);
        put_back(std::move(seek));
        actor.send(
            error_frame(ErrorCode::internal_error, "the game could not be created; try again", id));
        return;
    }
    auto writes = std::move(prepared->writes);
    writes.push_back(DeleteSeek{seek.id});
    const auto what = "seek " + seek.id;
    store_new_game(std::move(writes), prepared->room, players, actor, id, what,
                   [this, seek, players](bool stored) {
                       count_creating(players, -1);
                       if (!stored) {
                           put_back(seek);  // still open
                           return;
                       }
                       share({{"k", "unseek"}, {"seek_id", seek.id}});
                       if (!seek.is_private) {
                           send_to_subscribers(make_frame(protocol::seek_removed_message(seek.id)));
                       }
                   });
}

void Lobby::put_back(Seek seek) {
    const bool open = std::any_of(seeks_.begin(), seeks_.end(),
                                  [&](const Seek& other) { return other.id == seek.id; });
    if (open) {
        return;  // (a handler that threw after the seek came back)
    }
    auto at = std::upper_bound(
        seeks_.begin(), seeks_.end(), seek.created_at,
        [](std::int64_t created_at, const Seek& open) { return created_at < open.created_at; });
    if (seek.node.empty()) {
        share(seek_record(seek));  // (a state round meanwhile did not name it)
    }
    seeks_.insert(at, std::move(seek));
    arm_expiry();
}

void Lobby::store_new_game(WriteBatch writes, std::shared_ptr<Room> room,
                           std::vector<Actor> players, Actor actor, json id, std::string what,
                           std::function<void(bool stored)> after) {
    state_.store().commit(
        std::move(writes),
        [self = shared_from_this(), room = std::move(room), players = std::move(players),
         actor = std::move(actor), id = std::move(id), what = std::move(what),
         after = std::move(after)](const core::Status& stored) {
            boost::asio::post(self->strand_, [self, room, players, actor, id, what, after, stored] {
                if (!stored) {
                    component_logger("lobby")->error("{}: cannot store the game: {}", what,
                                                     stored.error());
                    actor.send(error_frame(ErrorCode::internal_error,
                                           "the game could not be stored; try again", id));
                } else {
                    self->state_.games().add(room);
                    component_logger("lobby")->info("{}: game {} for player {}", what, room->id(),
                                                    actor.player_id);
                    room->post_seated(players, actor.client_id, id);
                }
                after(static_cast<bool>(stored));
            });
        });
}

void Lobby::quick_pair(const Actor& actor, const protocol::Request& request,
                       const AskerFacts& facts) {
    if (auto refused = seek_refusal(actor, request)) {
        actor.send(error_frame(*refused, request.id));
        return;
    }
    if (const auto* seek = best_match(actor, request, facts)) {
        accept_seek(actor, seek->id, request.id, facts);
        return;
    }
    protocol::Request create = request;
    create.type = RequestType::seek_create;
    create.side.reset();
    create.is_private = false;
    create.rating_min.reset();
    create.rating_max.reset();
    create_seek(actor, create, facts);
}

void Lobby::remove_seek(const std::string& seek_id) {
    auto it =
        std::find_if(seeks_.begin(), seeks_.end(), [&](const Seek& s) { return s.id == seek_id; });
    if (it != seeks_.end()) {
        const bool listed = !it->is_private;
        const bool ours = it->node.empty();
        seeks_.erase(it);
        if (listed) {
            send_to_subscribers(make_frame(protocol::seek_removed_message(seek_id)));
        }
        if (!ours) {
            return;  // its node withdraws it
        }
    }
    share({{"k", "unseek"}, {"seek_id", seek_id}});
    store_async(DeleteSeek{seek_id});
}

// Seeks are kept for operators to see; nothing waits for these writes.
void Lobby::store_async(WriteOp write) {
    state_.store().commit({std::move(write)}, [](const core::Status& stored) {
        if (!stored) {
            component_logger("lobby")->warn("seek not stored: {}", stored.error());
        }
    });
}

Frame Lobby::lobby_frame(const json& id) const {
    json seeks = json::array();
    for (const auto& seek : seeks_) {
        if (!seek.is_private) {
            seeks.push_back(seek.json);
        }
    }
    return make_frame(protocol::lobby_message(
        seeks, games_page(0, static_cast<std::size_t>(protocol::lobby_games_page)), games_.size(),
        id));
}

json Lobby::games_page(std::size_t offset, std::size_t limit) const {
    json games = json::array();
    if (offset >= newest_.size()) {
        return games;
    }
    auto it = newest_.begin();
    std::advance(it, static_cast<std::ptrdiff_t>(offset));
    for (; it != newest_.end() && games.size() < limit; ++it) {
        games.push_back(games_.at(it->second).summary);
    }
    return games;
}

void Lobby::send_to_subscribers(const Frame& frame) {
    for (auto it = subscribers_.begin(); it != subscribers_.end();) {
        if (auto client = it->second.lock()) {
            client->send(frame);
            ++it;
        } else {
            it = subscribers_.erase(it);
        }
    }
}

}  // namespace server
