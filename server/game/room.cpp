// A room's life: building it (fresh or from stored events) and the dispatch of requests on its
// strand.
#include "server/game/room.h"

#include <boost/asio/post.hpp>

#include "protocol/messages.h"
#include "server/game/server_state.h"
#include "server/guard.h"
#include "server/log.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;
namespace events = protocol::events;

namespace {

// A stored time control that cannot be read leaves the game without a clock (restore reports it).
protocol::TimeControl stored_time_control(const std::string& text) {
    auto parsed = protocol::parse_time_control(text);
    return parsed ? *parsed : protocol::TimeControl{};
}

}  // namespace

Room::Room(ServerState& state, GameRecord record, std::vector<std::string> seat_names)
    : state_(state),
      strand_(boost::asio::make_strand(state.io())),
      record_(std::move(record)),
      variant_(core::parse_variant(record_.variant).value_or(core::VariantId::chessence)),
      rules_(core::parse_rule_set(record_.rules).value_or(core::RuleSet::house)),
      seat_names_(std::move(seat_names)),
      time_control_(stored_time_control(record_.time_control)),
      clock_timer_(strand_) {}

core::Expected<WriteBatch> Room::start_fresh() {
    if (auto status = restore({}); !status) {
        return core::make_error(status.error());
    }
    if (match_) {
        if (auto dealt = emit(round_started_event()); !dealt) {
            return core::make_error(dealt.error());
        }
    }
    WriteBatch batch = {CreateGame{record_}};
    if (!staged_.stored.empty()) {
        batch.push_back(AppendEvents{id(), 1, staged_.stored});
    }
    // Not shared yet: what is staged counts as committed once the caller's batch is.
    log_ = std::move(staged_.stored);
    staged_ = Staged{};
    return batch;
}

void Room::reset_state() {
    game_.reset();
    match_.reset();
    fens_.clear();
    result_.reset();
    draw_offer_.reset();
    rematch_offer_.reset();
    takeback_offer_.reset();
    rematch_game_.reset();
    chat_.clear();
    round_version_ = 0;
    rating_change_.clear();
    log_.clear();
    staged_ = Staged{};
}

core::Status Room::restore(const std::vector<StoredEvent>& stored_events) {
    if (!core::parse_variant(record_.variant) || record_.seats.size() != 2) {
        return core::make_error("bad game record");
    }
    if (auto control = protocol::parse_time_control(record_.time_control); !control) {
        return core::make_error("bad game record: " + control.error());
    }
    reset_state();
    if (variant_ == core::VariantId::sniderman) {
        auto match = core::sniderman::Match::create(record_.rounds, record_.seed);
        if (!match) {
            return core::make_error(match.error());
        }
        match_.emplace(std::move(*match));
        fens_ = {match_->round().fen()};
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
        fens_ = {game_->fen()};
    }
    reset_clock();
    log_.reserve(stored_events.size());
    for (const auto& stored : stored_events) {
        const auto where = "event " + std::to_string(stored.version);
        if (stored.version != static_cast<std::int64_t>(log_.size()) + 1) {
            return core::make_error(where + " out of order");
        }
        auto event = events::decode_event_text(stored.json);
        if (!event) {
            return core::make_error(where + ": " + event.error());
        }
        if (auto status = apply(*event); !status) {
            return core::make_error(where + ": " + status.error());
        }
        log_.push_back(stored.json);
    }
    if (record_.status == "finished" && !result_) {
        // A game closed without a game_over event (a game that could not start).
        auto result = events::result_from_json(json::parse(record_.result_json, nullptr, false));
        result_ = result ? *result : events::Result{std::nullopt, "aborted"};
    }
    finished_flag_ = result_.has_value();
    load_rating_change();
    update_abort_deadline();
    schedule_clock();
    return core::ok_status();
}

void Room::post_request(Actor actor, protocol::Request request) {
    boost::asio::post(strand_, [self = shared_from_this(), actor = std::move(actor),
                                request = std::move(request)] { self->handle(actor, request); });
}

void Room::post_seated(std::vector<Actor> players, std::uint64_t answer_client, json request_id) {
    boost::asio::post(strand_, [self = shared_from_this(), players = std::move(players),
                                answer_client, request_id = std::move(request_id)] {
        guarded(
            "room", [&] { return "room " + self->id() + ": seating"; },
            [&] {
                for (const auto& actor : players) {
                    const auto seat = self->seat_of(actor.player_id);
                    const json& echo =
                        actor.client_id == answer_client ? request_id : json(nullptr);
                    self->add_watcher(actor);
                    actor.send(make_frame(protocol::game_started_message(
                        self->id(), self->variant_, self->seat_name(seat.value_or(0)), echo)));
                    actor.send(make_frame(protocol::snapshot_message(self->snapshot_json(), echo)));
                }
                self->watchers_changed();
                self->publish_summary();
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

void Room::post_lag(std::uint64_t client_id, int lag_ms) {
    boost::asio::post(strand_, [self = shared_from_this(), client_id, lag_ms] {
        if (auto it = self->watchers_.find(client_id); it != self->watchers_.end()) {
            it->second.lag_ms = lag_ms;
            self->push_presence();
        }
    });
}

void Room::handle(const Actor& actor, const protocol::Request& request) {
    if (busy_) {
        waiting_.emplace_back(actor, request);
        return;
    }
    bool deferred = false;
    const bool ok = guarded(
        "room", [&] { return "room " + id() + " client " + std::to_string(actor.client_id); },
        [&] {
            // A flag that fell (or a first move that is late) ends the game before anything else
            // is looked at; the request then waits for that ending to be stored.
            if (clock_due()) {
                check_clock();
            }
            if (busy_) {
                deferred = true;
                return;
            }
            dispatch(actor, request);
        });
    if (deferred) {
        waiting_.emplace_back(actor, request);
        return;
    }
    if (!ok && !busy_) {
        // Whatever the handler applied before it threw was never committed.
        rebuild();
        fail(actor, request, ErrorCode::internal_error, "the server could not do this");
    }
}

void Room::dispatch(const Actor& actor, const protocol::Request& request) {
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
            if (match_) {
                play_round_move(actor, request, *seat);
            } else {
                play_move(actor, request, *seat);
            }
            break;
        case RequestType::resign:
            resign(actor, request, *seat);
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
        case RequestType::abort:
            abort_request(actor, request, *seat);
            break;
        case RequestType::claim_victory:
        case RequestType::claim_draw:
            claim(actor, request, *seat);
            break;
        case RequestType::takeback_offer:
        case RequestType::takeback_accept:
        case RequestType::takeback_decline:
            takeback_request(actor, request, *seat);
            break;
        case RequestType::moretime:
            more_time(actor, request, *seat);
            break;
        default:
            fail(actor, request, ErrorCode::internal_error, "not a game request");
            break;
    }
}

void Room::fail(const Actor& actor, const protocol::Request& request, ErrorCode code,
                std::string message) {
    actor.send(make_frame(protocol::error_message(code, message, request.id, id())));
}

}  // namespace server
