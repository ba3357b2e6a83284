// The player actions every variant shares: moves (Chessence, Chesica), resignation, draws,
// rematches and chat.
#include <ctime>

#include "protocol/messages.h"
#include "server/game/identity.h"
#include "server/log.h"
#include "server/game/room.h"
#include "server/game/server_state.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;

namespace {

std::string iso_time_now() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

}  // namespace

json Room::move_event(const core::Game& after, const std::string& move, int seat) const {
    json event = {
        {"kind", "move"}, {"move", move}, {"by", seat_name(seat)}, {"ply", after.moves().size()}};
    event.update(protocol::position_json(after));
    return event;
}

void Room::play_move(const Actor& actor, const protocol::Request& request, int seat) {
    if (result_) {
        fail(actor, request, ErrorCode::game_over, "the game is over");
        return;
    }
    const auto side = seat == 0 ? core::Side::first : core::Side::second;
    if (game_->to_move() != side) {
        fail(actor, request, ErrorCode::not_your_turn, "it is not your turn");
        return;
    }
    auto trial = game_->clone();
    auto played = trial->play(request.move);
    if (!played) {
        fail(actor, request, ErrorCode::illegal_move, played.error());
        return;
    }
    if (!commit(move_event(*trial, *played, seat))) {
        fail(actor, request, ErrorCode::internal_error, "the move could not be stored");
        return;
    }
    if (auto outcome = game_->outcome()) {
        end_game(protocol::outcome_json(variant_, *outcome));
    }
    publish_summary();
}

void Room::resign(int seat) {
    end_game({{"winner", seat_name(1 - seat)}, {"reason", "resignation"}});
}

void Room::end_game(json result) {
    if (!commit({{"kind", "game_over"}, {"result", result}})) {
        return;
    }
    if (auto done = state_.store().finish_game(id(), protocol::to_text(result), unix_now());
        !done) {
        component_logger("room")->error("game {}: cannot mark finished: {}", id(), done.error());
    }
    component_logger("room")->info("game {}: over, {}", id(), protocol::to_text(result));
    publish_summary();
}

void Room::draw_request(const Actor& actor, const protocol::Request& request, int seat) {
    if (variant_ == core::VariantId::sniderman) {
        fail(actor, request, ErrorCode::not_supported, "Sniderman has no draws");
        return;
    }
    if (result_) {
        fail(actor, request, ErrorCode::game_over, "the game is over");
        return;
    }
    const bool opponent_offered = draw_offer_ == 1 - seat;
    if (request.type == RequestType::draw_offer) {
        if (opponent_offered) {
            end_game({{"winner", nullptr}, {"reason", "agreement"}});
        } else if (draw_offer_ != seat) {
            commit({{"kind", "draw_offered"}, {"by", seat_name(seat)}});
        }
        return;
    }
    if (!opponent_offered) {
        fail(actor, request, ErrorCode::no_draw_offer, "your opponent has not offered a draw");
        return;
    }
    if (request.type == RequestType::draw_accept) {
        end_game({{"winner", nullptr}, {"reason", "agreement"}});
    } else {
        commit({{"kind", "draw_declined"}, {"by", seat_name(seat)}});
    }
}

void Room::rematch_request(const Actor& actor, const protocol::Request& request, int seat) {
    if (!result_) {
        fail(actor, request, ErrorCode::wrong_phase,
             "a rematch can be offered once the game is over");
        return;
    }
    if (rematch_game_) {
        fail(actor, request, ErrorCode::wrong_phase, "the rematch has started already");
        return;
    }
    const bool opponent_offered = rematch_offer_ == 1 - seat;
    if (request.type == RequestType::rematch_offer) {
        if (opponent_offered) {
            start_rematch(actor, request);
        } else if (rematch_offer_ != seat) {
            commit({{"kind", "rematch_offered"}, {"by", seat_name(seat)}});
        }
        return;
    }
    if (!opponent_offered) {
        fail(actor, request, ErrorCode::no_rematch_offer,
             "your opponent has not offered a rematch");
        return;
    }
    start_rematch(actor, request);
}

void Room::start_rematch(const Actor& actor, const protocol::Request& request) {
    GameSpec spec;
    spec.variant = variant_;
    spec.rules = rules_;
    spec.rounds = record_.rounds > 0 ? record_.rounds : 3;
    spec.is_private = record_.is_private;
    spec.seats = {record_.seats[1], record_.seats[0]};  // colours (or seats) change hands
    auto created = state_.create_game(spec);
    if (!created) {
        fail(actor, request, ErrorCode::internal_error, created.error());
        return;
    }
    auto room = *created;
    if (!commit({{"kind", "rematch_started"}, {"new_game_id", room->id()}})) {
        return;
    }
    std::vector<Actor> players;
    for (const auto& [client_id, watcher] : watchers_) {
        if (auto seat = seat_of(watcher.player_id)) {
            players.push_back(Actor{watcher.client, client_id, watcher.player_id,
                                    seat_names_[static_cast<std::size_t>(*seat)]});
        }
    }
    room->post_seated(std::move(players));
}

void Room::chat(const Actor& actor, const protocol::Request& request, std::optional<int> seat) {
    if (!seat && !watchers_.count(actor.client_id)) {
        fail(actor, request, ErrorCode::not_a_player, "watch the game to chat in it");
        return;
    }
    auto& times = chat_times_[actor.player_id];
    const auto now = std::chrono::steady_clock::now();
    while (!times.empty() && now - times.front() > chat_window) {
        times.pop_front();
    }
    if (times.size() >= static_cast<std::size_t>(chat_burst)) {
        fail(actor, request, ErrorCode::rate_limited, "too many chat messages; wait a little");
        return;
    }
    times.push_back(now);
    Json seat_json = nullptr;
    if (seat) {
        seat_json = seat_name(*seat);
    }
    commit({{"kind", "chat"},
            {"from", seat ? seat_names_[static_cast<std::size_t>(*seat)] : actor.name},
            {"player_id", actor.player_id},
            {"seat", seat_json},
            {"text", request.text},
            {"at", iso_time_now()}});
}

}  // namespace server
