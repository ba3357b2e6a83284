// The player actions every variant shares: moves (Chessence, Chesica), resignation, draws,
// rematches and chat.
#include <ctime>

#include "protocol/messages.h"
#include "server/game/room.h"
#include "server/game/server_state.h"
#include "server/log.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;
namespace events = protocol::events;

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
    events::Move move{request.move, seat_name(seat), std::nullopt,
                      static_cast<int>(game_->moves().size()) + 1};
    const auto stamp = [&](RoomEvent& event) { stamp_action(event, seat, actor.lag_ms); };
    if (auto played = emit(std::move(move), stamp); !played) {
        fail(actor, request, ErrorCode::illegal_move, played.error());
        return;
    }
    if (auto outcome = game_->outcome()) {
        end_game({outcome->winner
                      ? std::optional<std::string>(core::side_name(variant_, *outcome->winner))
                      : std::nullopt,
                  outcome->reason});
    }
    commit(actor, request);
}

void Room::resign(const Actor& actor, const protocol::Request& request, int seat) {
    if (result_) {
        fail(actor, request, ErrorCode::game_over, "the game is over");
        return;
    }
    end_game({seat_name(1 - seat), "resignation"});
    commit(actor, request);
}

void Room::end_game(events::Result result) {
    events::GameOver over{std::move(result), std::nullopt};
    if (clock_.timed()) {
        over.clock = clock_.reading(now(), true);
    }
    if (auto ended = emit(std::move(over)); !ended) {
        component_logger("room")->error("game {}: cannot end: {}", id(), ended.error());
    }
}

void Room::draw_request(const Actor& actor, const protocol::Request& request, int seat) {
    if (match_) {
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
            end_game({std::nullopt, "agreement"});
        } else if (draw_offer_ != seat) {
            emit(events::DrawOffered{seat_name(seat)});
        }
        commit(actor, request);
        return;
    }
    if (!opponent_offered) {
        fail(actor, request, ErrorCode::no_draw_offer, "your opponent has not offered a draw");
        return;
    }
    if (request.type == RequestType::draw_accept) {
        end_game({std::nullopt, "agreement"});
    } else {
        emit(events::DrawDeclined{seat_name(seat)});
    }
    commit(actor, request);
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
            emit(events::RematchOffered{seat_name(seat)});
            commit(actor, request);
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

// The new game and this room's rematch_started commit together: either both exist or neither.
void Room::start_rematch(const Actor& actor, const protocol::Request& request) {
    GameSpec spec;
    spec.variant = variant_;
    spec.rules = rules_;
    spec.rounds = record_.rounds > 0 ? record_.rounds : 3;
    spec.is_private = record_.is_private;
    spec.rated = record_.rated;
    spec.clock = time_control_;
    spec.seats = {record_.seats[1], record_.seats[0]};  // colours (or seats) change hands
    auto prepared = state_.prepare_game(spec);
    if (!prepared) {
        fail(actor, request, ErrorCode::internal_error, prepared.error());
        return;
    }
    auto room = prepared->room;
    if (auto started = emit(events::RematchStarted{room->id()}); !started) {
        fail(actor, request, ErrorCode::internal_error, started.error());
        return;
    }
    staged_.extra = std::move(prepared->writes);
    commit(actor, request, [this, room, actor] {
        state_.add_room(room);
        std::vector<Actor> players;
        for (const auto& [client_id, watcher] : watchers_) {
            if (auto seat = seat_of(watcher.player_id)) {
                players.push_back(Actor{watcher.client, client_id, watcher.player_id,
                                        seat_names_[static_cast<std::size_t>(*seat)]});
            }
        }
        room->post_seated(std::move(players));
    });
}

void Room::chat(const Actor& actor, const protocol::Request& request, std::optional<int> seat) {
    if (!seat && !watchers_.count(actor.client_id)) {
        fail(actor, request, ErrorCode::not_a_player, "watch the game to chat in it");
        return;
    }
    if (state_.muted(actor.player_id)) {
        fail(actor, request, ErrorCode::muted, "an admin has muted your chat");
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
    events::Chat line;
    line.from = seat ? seat_names_[static_cast<std::size_t>(*seat)] : actor.name;
    line.player_id = actor.player_id;
    if (seat) {
        line.seat = seat_name(*seat);
    }
    line.text = request.text;
    line.at = iso_time_now();
    emit(std::move(line));
    commit(actor, request);
}

}  // namespace server
