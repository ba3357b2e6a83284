// A room's life: building it (fresh or from stored events) and the road of every request on its
// strand up to the decision (request → turn → command → decide); the decision's way to the disk
// and out to the watchers is room_commit.cpp, the chat room_chat.cpp, the clock's timer
// room_clock.cpp, the outages refunded room_outages.cpp.
#include "server/game/room.h"

#include <algorithm>
#include <ctime>
#include <stdexcept>

#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "server/blocking_pool.h"
#include "server/bots/bot_identity.h"
#include "server/game/game_factory.h"
#include "server/game/identity.h"
#include "server/game/secrets.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/limits.h"
#include "server/log.h"
#include "server/metrics/metrics.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;
namespace events = protocol::events;

Room::Room(ServerState& state, GameRecord record, std::vector<std::string> seat_names)
    : state_(state),
      strand_(boost::asio::make_strand(state.io())),
      record_(std::move(record)),
      seat_names_(std::move(seat_names)),
      clock_timer_(strand_),
      spectators_throttle_(strand_, spectators_interval, "room " + record_.id + ": spectators",
                           [this] { return send_spectator_count(); }),
      summary_throttle_(strand_, summary_interval, "room " + record_.id + ": summary",
                        [this] {
                            publish_summary();
                            return true;
                        }),
      bot_timer_(strand_) {
    for (std::size_t seat = 0; seat < record_.seats.size(); ++seat) {
        if (bot_level(record_.seats[seat])) {
            bot_seat_ = static_cast<int>(seat);
        }
    }
    refunded_until_ = now();
    pauses_seen_ = state_.outages().pause_count();
}

ServerTime Room::now() const {
    return state_.time().now();
}

core::Expected<WriteBatch> Room::start_fresh() {
    const auto t = now();
    auto initial = initial_state(record_, t);
    if (!initial) {
        return core::make_error(initial.error());
    }
    game_ = std::move(*initial);
    gone_since_ = {t, t};  // nobody watches a room before it is shared
    if (bot_seat_) {
        gone_since_[static_cast<std::size_t>(*bot_seat_)].reset();  // the computer never leaves
    }
    WriteBatch batch = {CreateGame{record_}};
    std::vector<std::string> opening;
    for (auto event : opening_events(game_)) {
        if (auto status = apply(game_, event, t); !status) {
            return core::make_error(status.error());
        }
        opening.push_back(events::encode_event_text(event));
    }
    if (!opening.empty()) {
        batch.push_back(AppendEvents{id(), 1, opening});
    }
    // Not shared yet: the opening counts as committed once the caller's batch is.
    fens_by_version_.assign(opening.size(), std::string());
    log_ = std::move(opening);
    schedule_clock();
    return batch;
}

core::Status Room::restore(const std::vector<StoredEvent>& stored,
                           std::chrono::milliseconds unowned) {
    // A room here stopped acting for the game (its lease lost) and nobody played it since: the
    // time until now is refunded, whatever the claim knows of a former owner.
    const std::int64_t version = stored.empty() ? 0 : stored.back().version;
    if (const auto since = state_.outages().take_stopped(id(), version, record_.fence)) {
        refunds_ = refunds_.with_gap(*since, now());
    }
    if (auto status = replay_stored(stored, unowned); !status) {
        return status;
    }
    load_rating_change();
    return core::ok_status();
}

core::Status Room::replay_stored(const std::vector<StoredEvent>& stored,
                                 std::chrono::milliseconds unowned) {
    const auto t = now();
    std::vector<std::string> fens;
    fens.reserve(stored.size());
    auto replayed = replay(record_, stored, t, [&](const GameState& state, const RoomEvent& event) {
        const auto* move = std::get_if<events::Move>(&event);
        // A Sniderman round's last capture has dealt the next round already: no position.
        const bool on_board =
            move && static_cast<std::size_t>(move->ply) == state.current_game().moves().size();
        fens.push_back(on_board ? state.current_game().fen() : std::string());
    });
    if (!replayed) {
        return core::make_error(replayed.error());
    }
    fens_by_version_ = std::move(fens);
    game_ = std::move(*replayed);
    // The refunds so far, the takeover's, the store's outage this replay ends and the pauses not
    // refunded yet: those before the last clock reading count for nothing (it holds them).
    const auto pauses_seen = state_.outages().pause_count();
    auto refunds = refunds_.with_gap(t - unowned, t)
                       .with(state_.outages().pauses().within(refunded_until_, t));
    if (outage_since_) {
        const auto span = outage_span(t);
        refunds = refunds.with_gap(span.from, span.until);
    }
    resume(game_, t, state_.downtime().with(refunds));
    refunds_ = std::move(refunds);
    refunded_until_ = t;
    pauses_seen_ = pauses_seen;
    outage_since_.reset();
    log_.clear();
    log_.reserve(stored.size());
    for (const auto& event : stored) {
        log_.push_back(event.json);
    }
    for (int seat = 0; seat < 2; ++seat) {
        const bool here = online(record_.seats[static_cast<std::size_t>(seat)]);
        gone_since_[static_cast<std::size_t>(seat)] =
            here ? std::nullopt : std::optional<ServerTime>(t);
    }
    finished_flag_ = game_.result.has_value();
    rating_change_.clear();
    schedule_clock();
    return core::ok_status();
}

void Room::post_request(Actor actor, protocol::Request request) {
    boost::asio::post(strand_, [self = shared_from_this(), actor = std::move(actor),
                                request = std::move(request)] {
        self->handle(actor, request);
        self->release_if_idle();
    });
}

void Room::post_seated(std::vector<Actor> players, std::uint64_t answer_client, json request_id) {
    boost::asio::post(strand_, [self = shared_from_this(), players = std::move(players),
                                answer_client, request_id = std::move(request_id)] {
        guarded(
            "room", [&] { return "room " + self->id() + ": seating"; },
            [&] {
                for (const auto& actor : players) {
                    const auto seat = self->game_.seat_of(actor.player_id);
                    const json& echo =
                        actor.client_id == answer_client ? request_id : json(nullptr);
                    self->add_watcher(actor);
                    actor.send(make_frame(protocol::game_started_message(
                        self->id(), self->game_.variant, self->game_.seat_name(seat.value_or(0)),
                        echo)));
                    actor.send(make_frame(
                        protocol::snapshot_message(self->snapshot(actor.player_id), echo)));
                }
                self->watchers_changed();
                self->publish_summary();
                self->bot_turn();
            });
    });
}

void Room::post_client_gone(std::uint64_t client_id) {
    boost::asio::post(strand_, [self = shared_from_this(), client_id] {
        guarded(
            "room", [&] { return "room " + self->id() + ": client gone"; },
            [&] {
                self->watchers_.erase(client_id);
                self->watchers_changed();
                self->release_if_idle();
            });
    });
}

void Room::post_looked_away(std::uint64_t client_id) {
    boost::asio::post(strand_, [self = shared_from_this(), client_id] {
        guarded(
            "room", [&] { return "room " + self->id() + ": looked away"; },
            [&] {
                if (self->finished()) {
                    self->unwatch(client_id);
                }
            });
    });
}

void Room::post_summary() {
    boost::asio::post(strand_, [self = shared_from_this()] { self->publish_summary(); });
}

void Room::post_clock_check() {
    boost::asio::post(strand_, [self = shared_from_this()] {
        guarded(
            "room", [&] { return "room " + self->id() + ": clock check"; },
            [&] { self->check_clock(); });
    });
}

void Room::post_barrier(std::function<void()> then) {
    boost::asio::post(strand_, [self = shared_from_this(), then = std::move(then)] {
        guarded("room", "barrier", then);
    });
}

void Room::post_lag(std::uint64_t client_id, int lag_ms) {
    boost::asio::post(strand_, [self = shared_from_this(), client_id, lag_ms] {
        if (auto it = self->watchers_.find(client_id); it != self->watchers_.end()) {
            it->second.lag_ms = lag_ms;
            self->push_presence();
        }
    });
}

void Room::handle(const Actor& actor, const protocol::Request& request) {
    if (lost()) {
        refuse_lost(actor, request.id);
        return;
    }
    if (busy_) {
        wait_turn(actor, request);
        return;
    }
    if (!owns()) {
        // Cluster mode: the lease ran out (a node paused, cut off from Redis): nothing this room
        // knows may be current, so it answers nothing but "reconnect".
        lose("its lease ran out");
        refuse_lost(actor, request.id);
        return;
    }
    if (broken_) {
        rebuild(Waiting{actor, request});  // the request runs once the room is rebuilt
        return;
    }
    refund_outages();
    bool deferred = false;
    const bool ok = guarded(
        "room", [&] { return "room " + id() + " client " + std::to_string(actor.client_id); },
        [&] {
            // A flag that fell (or a first move that is late) ends the game before anything else
            // is looked at; the request then waits for that ending to be stored.
            if (auto ending = decide_time(game_, now()); !ending.empty()) {
                end_by_time(std::move(ending));
            }
            if (busy_) {
                deferred = true;
                return;
            }
            dispatch(actor, request);
        });
    if (deferred) {
        wait_turn(actor, request);
        return;
    }
    if (!ok && !busy_) {
        rebuild();
        fail(actor, request, ErrorCode::internal_error, "the server could not do this");
    }
}

void Room::wait_turn(const Actor& actor, const protocol::Request& request) {
    if (actor.bot_version < 0) {
        const auto mine = std::count_if(waiting_.begin(), waiting_.end(), [&](const auto& w) {
            return w.first.bot_version < 0 && w.first.client_id == actor.client_id;
        });
        if (waiting_.size() >= room_waiting_max ||
            static_cast<std::size_t>(mine) >= room_waiting_per_client) {
            fail(actor, request, ErrorCode::rate_limited,
                 "the game is busy; try again in a moment");
            return;
        }
    }
    waiting_.emplace_back(actor, request);
}

void Room::dispatch(const Actor& actor, const protocol::Request& request) {
    if (drop_bot_request(actor, request)) {
        return;
    }
    if (request.type == RequestType::watch) {
        watch(actor, request);
        return;
    }
    if (request.type == RequestType::unwatch) {
        unwatch(actor, request);
        return;
    }
    if (request.type == RequestType::chat) {
        if (auto refused = may_chat(actor, game_.seat_of(actor.player_id))) {
            fail(actor, request, refused->code, refused->message);
            return;
        }
        say(actor, request);
        return;
    }
    auto decision = decide(game_, command_for(actor, request), now());
    if (decision.error) {
        if (actor.bot_version >= 0) {
            // The computer's answer was refused (it should not be): it is asked again later, so
            // the game never waits for it forever.
            component_logger("room")->warn("game {}: the computer's {} was refused: {}", id(),
                                           protocol::request_type_name(request.type),
                                           decision.error->message);
            bot_asked_ = -1;
            retry_bot_later();
        }
        fail(actor, request, decision.error->code, decision.error->message);
        return;
    }
    const bool rematch = !decision.events.empty() &&
                         std::holds_alternative<events::RematchStarted>(decision.events.back());
    if (rematch) {
        start_rematch(std::move(decision), actor, request);
        return;
    }
    commit(std::move(decision.events), actor, request.id);
}

Command Room::command_for(const Actor& actor, const protocol::Request& request) const {
    Command command;
    command.request = request;
    command.seat = game_.seat_of(actor.player_id);
    command.player_id = actor.player_id;
    command.name = command.seat ? seat_names_[static_cast<std::size_t>(*command.seat)] : actor.name;
    command.lag_ms = actor.lag_ms;
    command.gone_since = gone_since_;
    if (request.type == RequestType::rematch_offer || request.type == RequestType::rematch_accept) {
        command.new_game_id = random_id("g_");
    }
    return command;
}

// The new game and this room's rematch_started commit together: either both exist or neither.
void Room::start_rematch(Decision decision, const Actor& actor, const protocol::Request& request) {
    const auto& started = std::get<events::RematchStarted>(decision.events.back());
    GameSpec spec;
    spec.id = started.new_game_id;
    spec.variant = game_.variant;
    spec.rules = game_.rules;
    spec.rounds = record_.rounds > 0 ? record_.rounds : 3;
    spec.is_private = record_.is_private;
    spec.rated = record_.rated;
    spec.clock = game_.time_control;
    spec.seats = {record_.seats[1], record_.seats[0]};  // colours (or seats) change hands
    auto prepared =
        std::make_shared<core::Expected<PreparedGame>>(core::make_error("not prepared"));
    auto decided = std::make_shared<std::vector<RoomEvent>>(std::move(decision.events));
    const bool handed = off_strand(
        [this, prepared, spec] {
            *prepared = state_.games().prepare(spec);
            return core::ok_status();
        },
        [this, prepared, decided, actor, request](const core::Status& status) {
            if (!status) {
                *prepared = core::make_error(status.error());
            }
            if (lost()) {
                refuse_lost(actor, request.id);  // (its waiting requests were refused)
                return;
            }
            if (!*prepared) {
                fail(actor, request, ErrorCode::internal_error, prepared->error());
                take_waiting();
                return;
            }
            auto room = (*prepared)->room;
            commit(std::move(*decided), actor, request.id, std::move((*prepared)->writes),
                   [this, room] {
                       state_.games().add(room);
                       std::vector<Actor> players;
                       for (const auto& [client_id, watcher] : watchers_) {
                           if (auto seat = game_.seat_of(watcher.player_id)) {
                               Actor player;
                               player.client = watcher.client;
                               player.client_id = client_id;
                               player.player_id = watcher.player_id;
                               player.name = seat_names_[static_cast<std::size_t>(*seat)];
                               players.push_back(std::move(player));
                           }
                       }
                       room->post_seated(std::move(players));
                   });
            take_waiting();
        });
    if (!handed) {
        fail(actor, request, ErrorCode::rate_limited, std::string(pool_busy_text));
    }
}

void Room::fail(const Actor& actor, const protocol::Request& request, ErrorCode code,
                std::string message) {
    actor.send(error_frame(code, message, request.id, id()));
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
