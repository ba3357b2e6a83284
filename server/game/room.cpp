#include "server/game/room.h"

#include <algorithm>
#include <set>

#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "server/game/lobby.h"
#include "server/log.h"
#include "server/game/server_state.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;

Room::Room(ServerState& state, GameRecord record, std::vector<std::string> seat_names)
    : state_(state),
      strand_(boost::asio::make_strand(state.io())),
      record_(std::move(record)),
      variant_(core::parse_variant(record_.variant).value_or(core::VariantId::chessence)),
      rules_(core::parse_rule_set(record_.rules).value_or(core::RuleSet::house)),
      seat_names_(std::move(seat_names)) {}

core::Status Room::start_fresh() {
    if (auto status = restore({}); !status) {
        return status;
    }
    if (variant_ == core::VariantId::sniderman) {
        if (!commit(round_started_event())) {
            return core::make_error("cannot store the first round");
        }
    }
    publish_summary();
    return core::ok_status();
}

core::Status Room::restore(const std::vector<StoredEvent>& events) {
    if (!core::parse_variant(record_.variant) || record_.seats.size() != 2) {
        return core::make_error("bad game record");
    }
    if (variant_ == core::VariantId::sniderman) {
        auto match = core::sniderman::Match::create(record_.rounds, record_.seed);
        if (!match) {
            return core::make_error(match.error());
        }
        match_.emplace(std::move(*match));
    } else {
        core::GameOptions options;
        options.rules = rules_;
        if (!record_.start_fen.empty()) {
            options.fen = record_.start_fen;
        }
        auto game = core::make_game(variant_, options);
        if (!game) {
            return core::make_error(game.error());
        }
        game_ = std::move(*game);
    }
    for (const auto& stored : events) {
        if (stored.version != static_cast<std::int64_t>(log_.size()) + 1) {
            return core::make_error("event " + std::to_string(stored.version) + " out of order");
        }
        const json event = json::parse(stored.json, nullptr, false);
        if (!event.is_object()) {
            return core::make_error("event " + std::to_string(stored.version) + " is not JSON");
        }
        // Stored events are our own, but a damaged database must not bring the server down.
        try {
            if (auto status = apply(event); !status) {
                return core::make_error("event " + std::to_string(stored.version) + ": " +
                                        status.error());
            }
        } catch (const nlohmann::json::exception& e) {
            return core::make_error("event " + std::to_string(stored.version) + ": " + e.what());
        }
        log_.push_back(stored.json);
    }
    if (record_.status == "finished" && !result_) {
        result_ = json::parse(record_.result_json, nullptr, false);
        finished_flag_ = true;
    }
    publish_summary();
    return core::ok_status();
}

void Room::post_request(Actor actor, protocol::Request request) {
    boost::asio::post(strand_, [self = shared_from_this(), actor = std::move(actor),
                                request = std::move(request)] { self->handle(actor, request); });
}

void Room::post_seated(std::vector<Actor> players) {
    boost::asio::post(strand_, [self = shared_from_this(), players = std::move(players)] {
        for (const auto& actor : players) {
            const auto seat = self->seat_of(actor.player_id);
            self->add_watcher(actor);
            actor.send(make_frame(protocol::game_started_message(
                self->id(), self->variant_, self->seat_name(seat.value_or(0)), nullptr)));
            actor.send(make_frame(protocol::snapshot_message(self->snapshot_json(), nullptr)));
        }
        self->watchers_changed();
    });
}

void Room::post_client_gone(std::uint64_t client_id) {
    boost::asio::post(strand_, [self = shared_from_this(), client_id] {
        self->watchers_.erase(client_id);
        self->watchers_changed();
        self->release_if_idle();
    });
}

void Room::release_if_idle() {
    if (result_ && watchers_.empty()) {
        // A finished game nobody watches leaves memory; the store rebuilds it on demand.
        state_.release_room(id());
    }
}

void Room::handle(const Actor& actor, const protocol::Request& request) {
    if (request.type == RequestType::watch) {
        watch(actor, request);
        return;
    }
    if (request.type == RequestType::unwatch) {
        unwatch(actor.client_id);
        return;
    }
    const auto seat = seat_of(actor.player_id);
    if (request.type == RequestType::chat) {
        chat(actor, request, seat);
        return;
    }
    if (!seat) {
        fail(actor, request, ErrorCode::not_a_player, "you do not play in this game");
        return;
    }
    switch (request.type) {
        case RequestType::move:
            if (variant_ == core::VariantId::sniderman) {
                play_round_move(actor, request, *seat);
            } else {
                play_move(actor, request, *seat);
            }
            break;
        case RequestType::resign:
            if (result_) {
                fail(actor, request, ErrorCode::game_over, "the game is over");
            } else {
                resign(*seat);
            }
            break;
        case RequestType::draw_offer:
        case RequestType::draw_accept:
        case RequestType::draw_decline:
            draw_request(actor, request, *seat);
            break;
        case RequestType::rematch_offer:
        case RequestType::rematch_accept:
            rematch_request(actor, request, *seat);
            break;
        case RequestType::name_object:
            name_object(actor, request, *seat);
            break;
        case RequestType::choose_side:
            choose_side(actor, request, *seat);
            break;
        default:
            fail(actor, request, ErrorCode::internal_error, "not a game request");
            break;
    }
}

void Room::watch(const Actor& actor, const protocol::Request& request) {
    add_watcher(actor);
    const auto known = static_cast<std::int64_t>(log_.size());
    if (request.since && !request.full && *request.since <= known) {
        for (auto version = *request.since + 1; version <= known; ++version) {
            actor.send(make_frame(protocol::event_message(
                id(), version, log_[static_cast<std::size_t>(version - 1)])));
        }
    } else {
        actor.send(make_frame(protocol::snapshot_message(snapshot_json(), request.id)));
    }
    watchers_changed();
}

void Room::unwatch(std::uint64_t client_id) {
    auto it = watchers_.find(client_id);
    if (it == watchers_.end()) {
        return;
    }
    if (auto client = it->second.client.lock()) {
        client->watching(id(), false);
    }
    watchers_.erase(it);
    watchers_changed();
    release_if_idle();
}

void Room::add_watcher(const Actor& actor) {
    if (watchers_.count(actor.client_id)) {
        return;
    }
    watchers_[actor.client_id] = Watcher{actor.client, actor.player_id};
    if (auto client = actor.client.lock()) {
        client->watching(id(), true);
    }
}

void Room::fail(const Actor& actor, const protocol::Request& request, ErrorCode code,
                std::string message) {
    actor.send(make_frame(protocol::error_message(code, message, request.id, id())));
}

bool Room::commit(json event) {
    const auto version = static_cast<std::int64_t>(log_.size()) + 1;
    std::string text = protocol::to_text(event);
    auto log = component_logger("room");
    if (auto stored = state_.store().append_event(id(), version, text); !stored) {
        log->error("game {}: cannot store event {}: {}", id(), version, stored.error());
        return false;
    }
    if (auto applied = apply(event); !applied) {
        log->critical("game {}: stored event {} does not apply: {}", id(), version,
                      applied.error());
    }
    log_.push_back(text);
    log->debug("game {}: event {} {}", id(), version, event.value("kind", ""));
    broadcast(make_frame(protocol::event_message(id(), version, text)));
    return true;
}

core::Status Room::apply(const json& event) {
    const std::string kind = event.value("kind", "");
    const auto seat_by = [&](const char* key) { return seat_from_name(event.value(key, "")); };
    if (kind == "game_over") {
        result_ = event.value("result", json(nullptr));
        draw_offer_.reset();
        finished_flag_ = true;
    } else if (kind == "draw_offered") {
        draw_offer_ = seat_by("by");
    } else if (kind == "draw_declined") {
        draw_offer_.reset();
    } else if (kind == "rematch_offered") {
        rematch_offer_ = seat_by("by");
    } else if (kind == "rematch_started") {
        rematch_game_ = event.value("new_game_id", "");
        rematch_offer_.reset();
    } else if (kind == "chat") {
        chat_.push_back({{"from", event.value("from", "")},
                         {"seat", event.contains("seat") ? event["seat"] : Json(nullptr)},
                         {"text", event.value("text", "")},
                         {"at", event.value("at", "")}});
        while (chat_.size() > snapshot_chat_lines) {
            chat_.pop_front();
        }
    } else if (kind == "move" && game_) {
        auto played = game_->play(event.value("move", ""));
        if (!played) {
            return core::make_error(played.error());
        }
        draw_offer_.reset();
    } else if (match_) {
        return apply_sniderman(kind, event);
    } else {
        return core::make_error("unknown event kind `" + kind + "`");
    }
    return core::ok_status();
}

void Room::broadcast(const Frame& frame) {
    for (auto it = watchers_.begin(); it != watchers_.end();) {
        if (auto client = it->second.client.lock()) {
            client->send(frame);
            ++it;
        } else {
            it = watchers_.erase(it);
        }
    }
}

int Room::spectator_count() const {
    std::set<std::uint64_t> clients;
    for (const auto& [client_id, watcher] : watchers_) {
        if (!seat_of(watcher.player_id)) {
            clients.insert(client_id);
        }
    }
    return static_cast<int>(clients.size());
}

void Room::watchers_changed() {
    push_spectators();
    push_presence();
}

void Room::push_presence() {
    std::array<bool, 2> now{};
    Json online = Json::object();
    for (int seat = 0; seat < 2; ++seat) {
        now[static_cast<std::size_t>(seat)] =
            this->online(record_.seats[static_cast<std::size_t>(seat)]);
        online[seat_name(seat)] = now[static_cast<std::size_t>(seat)];
    }
    if (now == last_online_) {
        return;
    }
    last_online_ = now;
    broadcast(make_frame(protocol::presence_message(id(), online)));
}

void Room::push_spectators() {
    const int count = spectator_count();
    if (count == last_spectators_) {
        return;
    }
    last_spectators_ = count;
    broadcast(make_frame(protocol::spectators_message(id(), count)));
    publish_summary();
}

void Room::publish_summary() {
    if (record_.is_private) {
        return;
    }
    if (result_) {
        state_.lobby().post_game_summary(id(), nullptr);
        return;
    }
    json players = json::object();
    for (int seat = 0; seat < 2; ++seat) {
        players[seat_name(seat)] = seat_names_[static_cast<std::size_t>(seat)];
    }
    std::size_t moves = 0;
    if (game_) {
        moves = game_->moves().size();
    } else if (match_) {
        for (const auto& round : match_->records()) {
            moves += round.moves.size();
        }
    }
    state_.lobby().post_game_summary(id(), {{"game_id", id()},
                                            {"variant", record_.variant},
                                            {"rules", record_.rules},
                                            {"players", players},
                                            {"moves", moves},
                                            {"spectators", last_spectators_}});
}

bool Room::online(const std::string& player_id) const {
    return std::any_of(watchers_.begin(), watchers_.end(), [&](const auto& entry) {
        return entry.second.player_id == player_id && !entry.second.client.expired();
    });
}

std::optional<int> Room::seat_of(const std::string& player_id) const {
    for (int seat = 0; seat < 2; ++seat) {
        if (record_.seats[static_cast<std::size_t>(seat)] == player_id) {
            return seat;
        }
    }
    return std::nullopt;
}

std::string Room::seat_name(int seat) const {
    if (variant_ == core::VariantId::sniderman) {
        return seat == 0 ? "player0" : "player1";
    }
    return std::string(
        core::side_name(variant_, seat == 0 ? core::Side::first : core::Side::second));
}

}  // namespace server

namespace server {

std::optional<int> Room::seat_from_name(const std::string& name) const {
    for (int seat = 0; seat < 2; ++seat) {
        if (seat_name(seat) == name) {
            return seat;
        }
    }
    return std::nullopt;
}

}  // namespace server
