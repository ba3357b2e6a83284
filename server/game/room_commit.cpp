// The path of every change: a request's events are applied to the room (apply, the reducer that
// also replays stored events) and staged (emit), committed to the store in one batch (commit), and
// broadcast once the batch is durable (committed).
#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "server/game/identity.h"
#include "server/game/room.h"
#include "server/game/server_state.h"
#include "server/log.h"

namespace server {

using nlohmann::json;
namespace events = protocol::events;

core::Status Room::apply(RoomEvent& event, json* derived) {
    if (auto status = apply_game(event, derived); !status) {
        return status;
    }
    apply_clock(event);
    return core::ok_status();
}

core::Status Room::apply_game(RoomEvent& event, json* derived) {
    const bool round_event = std::holds_alternative<events::Move>(event) ||
                             std::holds_alternative<events::ObjectNamed>(event) ||
                             std::holds_alternative<events::SideChosen>(event) ||
                             std::holds_alternative<events::RoundStarted>(event) ||
                             std::holds_alternative<events::RoundOver>(event);
    if (match_ && round_event) {
        return apply_sniderman(event, derived);
    }
    if (auto* move = std::get_if<events::Move>(&event)) {
        auto played = game_->play(move->move);
        if (!played) {
            return core::make_error(played.error());
        }
        move->move = std::move(*played);
        fens_.push_back(game_->fen());
        draw_offer_.reset();
        takeback_offer_.reset();
        if (derived) {
            *derived = derived_position(*game_);
        }
        return core::ok_status();
    }
    return std::visit(
        [this, derived](auto& e) -> core::Status {
            using E = std::decay_t<decltype(e)>;
            const auto by = [&](const std::string& seat) { return seat_from_name(seat); };
            if constexpr (std::is_same_v<E, events::GameOver>) {
                result_ = e.result;
                draw_offer_.reset();
                takeback_offer_.reset();
            } else if constexpr (std::is_same_v<E, events::TakebackOffered>) {
                takeback_offer_ = by(e.by);
            } else if constexpr (std::is_same_v<E, events::TakebackDeclined>) {
                takeback_offer_.reset();
            } else if constexpr (std::is_same_v<E, events::Takeback>) {
                return apply_takeback(e, derived);
            } else if constexpr (std::is_same_v<E, events::MoreTime>) {
                if (!by(e.by) || !time_control_.real_time()) {
                    return core::make_error("more time in a game without a real-time clock");
                }
            } else if constexpr (std::is_same_v<E, events::DrawOffered>) {
                draw_offer_ = by(e.by);
            } else if constexpr (std::is_same_v<E, events::DrawDeclined>) {
                draw_offer_.reset();
            } else if constexpr (std::is_same_v<E, events::RematchOffered>) {
                rematch_offer_ = by(e.by);
            } else if constexpr (std::is_same_v<E, events::RematchStarted>) {
                rematch_game_ = e.new_game_id;
                rematch_offer_.reset();
            } else if constexpr (std::is_same_v<E, events::Chat>) {
                auto line = events::encode_event(e);
                line.erase("kind");
                chat_.push_back(std::move(line));
                while (chat_.size() > snapshot_chat_lines) {
                    chat_.pop_front();
                }
            } else {
                return core::make_error("a " + std::string(events::kind_name(e)) + " event in a " +
                                        record_.variant + " game");
            }
            return core::ok_status();
        },
        event);
}

core::Status Room::emit(RoomEvent event, const std::function<void(RoomEvent&)>& stamp) {
    json derived = json::object();
    if (auto status = apply_game(event, &derived); !status) {
        return status;
    }
    if (stamp) {
        stamp(event);
    }
    apply_clock(event);
    if (const auto* over = std::get_if<events::GameOver>(&event)) {
        staged_.finish = over->result;
    }
    staged_.stored.push_back(events::encode_event_text(event));
    staged_.derived.push_back(std::move(derived));
    return core::ok_status();
}

json Room::derived_position(const core::Game& game) const {
    return protocol::position_json(game);
}

void Room::commit(const Actor& actor, const protocol::Request& request,
                  std::function<void()> after) {
    Staged staged = std::move(staged_);
    staged_ = Staged{};
    if (staged.stored.empty() && staged.extra.empty()) {
        if (after) {
            after();
        }
        return;
    }
    staged.after = std::move(after);
    staged.requester = actor;
    staged.request_id = request.id;
    WriteBatch batch = std::move(staged.extra);
    staged.extra.clear();
    batch.push_back(AppendEvents{id(), static_cast<std::int64_t>(log_.size()) + 1, staged.stored});
    if (staged.finish) {
        batch.push_back(
            FinishGame{id(), protocol::to_text(events::result_json(*staged.finish)), unix_now()});
        if (auto rating = rating_write(*staged.finish)) {
            batch.push_back(std::move(*rating));
        }
    }
    state_.store().commit(std::move(batch), [self = shared_from_this(), staged = std::move(staged)](
                                                core::Status status) mutable {
        boost::asio::post(self->strand_,
                          [self, status = std::move(status), staged = std::move(staged)]() mutable {
                              self->committed(std::move(status), std::move(staged));
                          });
    });
    // After the call: a store that throws leaves the room free (and the handler's guard rebuilds
    // it); the outcome always arrives later, on the strand.
    busy_ = true;
}

void Room::committed(core::Status status, Staged staged) {
    busy_ = false;
    auto log = component_logger("room");
    if (!status) {
        log->error("game {}: cannot store {} event(s): {}", id(), staged.stored.size(),
                   status.error());
        rebuild();
        staged.requester.send(make_frame(protocol::error_message(
            protocol::ErrorCode::internal_error, "the server could not store this; try again",
            staged.request_id, id())));
    } else {
        for (std::size_t i = 0; i < staged.stored.size(); ++i) {
            log_.push_back(std::move(staged.stored[i]));
            const auto version = static_cast<std::int64_t>(log_.size());
            broadcast(
                make_frame(protocol::event_message(id(), version, log_.back(), staged.derived[i])));
        }
        if (staged.finish) {
            finished_flag_ = true;
            log->info("game {}: over, {}", id(),
                      protocol::to_text(events::result_json(*staged.finish)));
            announce_rating_change();
        }
        if (staged.after) {
            staged.after();
        }
        publish_summary();
    }
    schedule_clock();
    while (!busy_ && !waiting_.empty()) {
        auto [actor, request] = std::move(waiting_.front());
        waiting_.pop_front();
        handle(actor, request);
    }
}

void Room::rebuild() {
    std::vector<StoredEvent> stored;
    stored.reserve(log_.size());
    for (std::size_t i = 0; i < log_.size(); ++i) {
        stored.push_back({static_cast<std::int64_t>(i) + 1, log_[i]});
    }
    if (auto status = restore(stored); !status) {
        component_logger("room")->critical("game {}: cannot rebuild from its events: {}", id(),
                                           status.error());
    }
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

}  // namespace server
