// The game machine's dispatch, the requests every variant shares (moves in Chessence and Chesica,
// resignation, draws, rematches, the spectators' chat switch) and the reducer. Sniderman's phases,
// takebacks and the requests around time have files of their own (game_machine.h).
#include "server/game/game_machine.h"

#include "protocol/messages.h"
#include "server/limits.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;
namespace events = protocol::events;
using events::RoomEvent;

namespace {

Decision decide_resign(const GameState& state, const Command& command, ServerTime now) {
    if (state.result) {
        return Decision::refuse(ErrorCode::game_over, "the game is over");
    }
    Decision decision;
    decision.events.push_back(
        game_over(state, {state.seat_name(1 - *command.seat), "resignation"}, now));
    return decision;
}

Decision decide_draw(const GameState& state, const Command& command, ServerTime now) {
    if (state.match) {
        return Decision::refuse(ErrorCode::not_supported, "Sniderman has no draws");
    }
    if (state.result) {
        return Decision::refuse(ErrorCode::game_over, "the game is over");
    }
    const int seat = *command.seat;
    const bool opponent_offered = state.draw_offer == 1 - seat;
    Decision decision;
    if (command.request.type == RequestType::draw_offer) {
        if (opponent_offered) {
            decision.events.push_back(game_over(state, {std::nullopt, "agreement"}, now));
        } else if (state.draw_offer != seat) {
            decision.events.push_back(events::DrawOffered{state.seat_name(seat)});
        }
        return decision;
    }
    if (!opponent_offered) {
        return Decision::refuse(ErrorCode::no_draw_offer, "your opponent has not offered a draw");
    }
    if (command.request.type == RequestType::draw_accept) {
        decision.events.push_back(game_over(state, {std::nullopt, "agreement"}, now));
    } else {
        decision.events.push_back(events::DrawDeclined{state.seat_name(seat)});
    }
    return decision;
}

// Accepting (or offering against a standing offer) starts the rematch: `rematch_started` names
// the new game, which the room creates in the same commit.
Decision decide_rematch(const GameState& state, const Command& command) {
    if (state.in_tournament()) {
        return Decision::refuse(ErrorCode::wrong_phase,
                                "a tournament game has no rematch: the tournament pairs you again");
    }
    if (!state.result) {
        return Decision::refuse(ErrorCode::wrong_phase,
                                "a rematch can be offered once the game is over");
    }
    if (state.rematch_game) {
        return Decision::refuse(ErrorCode::wrong_phase, "the rematch has started already");
    }
    const int seat = *command.seat;
    const bool opponent_offered = state.rematch_offer == 1 - seat;
    Decision decision;
    if (command.request.type == RequestType::rematch_offer && !opponent_offered) {
        if (state.rematch_offer != seat) {
            decision.events.push_back(events::RematchOffered{state.seat_name(seat)});
        }
        return decision;
    }
    if (!opponent_offered) {
        return Decision::refuse(ErrorCode::no_rematch_offer,
                                "your opponent has not offered a rematch");
    }
    decision.events.push_back(events::RematchStarted{command.new_game_id});
    return decision;
}

// A player opens or closes the spectators' chat; saying what is already so changes nothing.
Decision decide_spectator_chat(const GameState& state, const Command& command) {
    if (state.result) {
        return Decision::refuse(ErrorCode::game_over,
                                "the game is over: its spectators' chat is closed");
    }
    Decision decision;
    if (state.spectator_chat != command.request.open) {
        decision.events.push_back(
            events::SpectatorChat{state.seat_name(*command.seat), command.request.open});
    }
    return decision;
}

}  // namespace

Decision decide(const GameState& state, const Command& command, ServerTime now) {
    const auto type = command.request.type;
    if (!command.seat) {
        return Decision::refuse(ErrorCode::not_a_player, "you do not play in this game");
    }
    switch (type) {
        case RequestType::move:
            return state.match ? decide_sniderman(state, command, now)
                               : decide_move(state, command, now);
        case RequestType::name_object:
        case RequestType::choose_side:
            return decide_sniderman(state, command, now);
        case RequestType::resign:
            return decide_resign(state, command, now);
        case RequestType::draw_offer:
        case RequestType::draw_accept:
        case RequestType::draw_decline:
            return decide_draw(state, command, now);
        case RequestType::rematch_offer:
        case RequestType::rematch_accept:
            return decide_rematch(state, command);
        case RequestType::abort:
        case RequestType::claim_victory:
        case RequestType::claim_draw:
        case RequestType::moretime:
        case RequestType::berserk:
            return decide_clock_request(state, command, now);
        case RequestType::takeback_offer:
        case RequestType::takeback_accept:
        case RequestType::takeback_decline:
            return decide_takeback(state, command, now);
        case RequestType::spectator_chat:
            return decide_spectator_chat(state, command);
        default:
            return Decision::refuse(ErrorCode::internal_error, "not a game request");
    }
}

// A move in Chessence or Chesica; one that ends the game brings its game_over.
Decision decide_move(const GameState& state, const Command& command, ServerTime now) {
    if (state.result) {
        return Decision::refuse(ErrorCode::game_over, "the game is over");
    }
    const int seat = *command.seat;
    const auto side = seat == 0 ? core::Side::first : core::Side::second;
    if (state.game->to_move() != side) {
        return Decision::refuse(ErrorCode::not_your_turn, "it is not your turn");
    }
    GameState scratch = state.scratch();
    Decision decision;
    events::Move move{command.request.move, state.seat_name(seat), std::nullopt,
                      static_cast<int>(state.game->moves().size()) + 1};
    if (auto refused = append_action(scratch, decision, std::move(move), seat, command, now,
                                     ErrorCode::illegal_move)) {
        return Decision{{}, refused};
    }
    if (auto outcome = scratch.game->outcome()) {
        const auto winner =
            outcome->winner
                ? std::optional<std::string>(core::side_name(state.variant, *outcome->winner))
                : std::nullopt;
        if (auto over = append_event(scratch, decision,
                                     game_over(scratch, {winner, outcome->reason}, now), now);
            !over) {
            return Decision::refuse(ErrorCode::internal_error, over.error());
        }
    }
    return decision;
}

events::GameOver game_over(const GameState& state, events::Result result, ServerTime now) {
    events::GameOver over{std::move(result), std::nullopt};
    if (state.clock.timed()) {
        over.clock = state.clock.reading(now, true);
    }
    return over;
}

core::Status append_event(GameState& scratch, Decision& decision, RoomEvent event, ServerTime now) {
    if (auto status = apply(scratch, event, now); !status) {
        return status;
    }
    decision.events.push_back(std::move(event));
    return core::ok_status();
}

std::optional<protocol::ProtocolError> append_action(GameState& scratch, Decision& decision,
                                                     RoomEvent event, int seat,
                                                     const Command& command, ServerTime now,
                                                     ErrorCode refused_as) {
    const GameClock before = scratch.clock;
    if (auto status = apply_game(scratch, event, nullptr); !status) {
        return protocol::ProtocolError{refused_as, status.error()};
    }
    if (before.timed()) {
        const auto action = before.after_action(seat, scratch.acting_seat(), now, command.lag_ms);
        if (!action.in_time) {
            return protocol::ProtocolError{ErrorCode::game_over, "your time ran out"};
        }
        std::visit(
            [&](auto& e) {
                using E = std::decay_t<decltype(e)>;
                if constexpr (std::is_same_v<E, events::Move> ||
                              std::is_same_v<E, events::ObjectNamed> ||
                              std::is_same_v<E, events::SideChosen>) {
                    e.clock = action.reading;
                    e.lag_ms = action.lag_credited;
                }
            },
            event);
    }
    apply_clock(scratch, event, now);
    ++scratch.version;
    decision.events.push_back(std::move(event));
    return std::nullopt;
}

core::Status apply(GameState& state, RoomEvent& event, ServerTime now, json* derived,
                   std::string* position) {
    if (auto status = apply_game(state, event, derived, position); !status) {
        return status;
    }
    apply_clock(state, event, now);
    ++state.version;
    return core::ok_status();
}

core::Status apply_game(GameState& state, RoomEvent& event, json* derived, std::string* position) {
    const bool round_event = std::holds_alternative<events::Move>(event) ||
                             std::holds_alternative<events::ObjectNamed>(event) ||
                             std::holds_alternative<events::SideChosen>(event) ||
                             std::holds_alternative<events::RoundStarted>(event) ||
                             std::holds_alternative<events::RoundOver>(event);
    if (state.match && round_event) {
        return apply_sniderman(state, event, derived);
    }
    if (auto* move = std::get_if<events::Move>(&event)) {
        if (!state.game) {
            return core::make_error("a move in a game without a board");
        }
        auto played = state.game->play(move->move);
        if (!played) {
            return core::make_error(played.error());
        }
        move->move = std::move(*played);
        if (state.keeps_history) {
            state.fens.push_back(state.game->fen());
        }
        state.draw_offer.reset();
        state.takeback_offer.reset();
        if (position) {
            *position = protocol::position_fields_text(
                *state.game, state.keeps_history ? state.fens.back() : state.game->fen());
        } else if (derived) {
            *derived = protocol::position_json(*state.game);
        }
        return core::ok_status();
    }
    return std::visit(
        [&state, derived](auto& e) -> core::Status {
            using E = std::decay_t<decltype(e)>;
            const auto by = [&](const std::string& seat) { return state.seat_from_name(seat); };
            if constexpr (std::is_same_v<E, events::GameOver>) {
                state.result = e.result;
                state.draw_offer.reset();
                state.takeback_offer.reset();
            } else if constexpr (std::is_same_v<E, events::TakebackOffered>) {
                state.takeback_offer = by(e.by);
            } else if constexpr (std::is_same_v<E, events::TakebackDeclined>) {
                state.takeback_offer.reset();
            } else if constexpr (std::is_same_v<E, events::Takeback>) {
                return apply_takeback(state, e, derived);
            } else if constexpr (std::is_same_v<E, events::MoreTime>) {
                if (!by(e.by) || !state.time_control.real_time()) {
                    return core::make_error("more time in a game without a real-time clock");
                }
                ++state.moretime_given[static_cast<std::size_t>(*by(e.by))];
            } else if constexpr (std::is_same_v<E, events::Berserk>) {
                if (!by(e.by) || !state.in_tournament() || !state.time_control.real_time()) {
                    return core::make_error("a berserk outside a real-time tournament game");
                }
                state.berserk[static_cast<std::size_t>(*by(e.by))] = true;
            } else if constexpr (std::is_same_v<E, events::DrawOffered>) {
                state.draw_offer = by(e.by);
            } else if constexpr (std::is_same_v<E, events::DrawDeclined>) {
                state.draw_offer.reset();
            } else if constexpr (std::is_same_v<E, events::RematchOffered>) {
                state.rematch_offer = by(e.by);
            } else if constexpr (std::is_same_v<E, events::RematchStarted>) {
                state.rematch_game = e.new_game_id;
                state.rematch_offer.reset();
            } else if constexpr (std::is_same_v<E, events::Chat>) {
                // Legacy: a chat line of a log stored before chat left it (it is in chat_lines).
            } else if constexpr (std::is_same_v<E, events::SpectatorChat>) {
                state.spectator_chat = e.open;
            } else {
                return core::make_error("a " + std::string(events::kind_name(e)) + " event in a " +
                                        state.record.variant + " game");
            }
            return core::ok_status();
        },
        event);
}

namespace {

// The clock reading an event carries, if any.
const events::ClockReading* reading_of(const RoomEvent& event) {
    return std::visit(
        [](const auto& e) -> const events::ClockReading* {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, events::MoreTime> ||
                          std::is_same_v<E, events::Berserk>) {
                return &e.clock;
            } else if constexpr (requires { e.clock; }) {
                return e.clock ? &*e.clock : nullptr;
            } else {
                return nullptr;
            }
        },
        event);
}

}  // namespace

// Each event is applied at the time its clock reading was taken, so the clocks come back as they
// were live; an event without a reading keeps the time of the one before it, and a reading stored
// without its time (before issue 22) counts as taken `now`. The game starts at its creation.
core::Expected<GameState> replay(const GameRecord& record, const std::vector<StoredEvent>& stored,
                                 ServerTime now, const AfterEvent& after_event) {
    auto t = record.created_at > 0 ? std::min(now, from_unix_ms(record.created_at * 1000)) : now;
    auto state = initial_state(record, t);
    if (!state) {
        return state;
    }
    for (const auto& event_text : stored) {
        const auto where = "event " + std::to_string(event_text.version);
        if (event_text.version != state->version + 1) {
            return core::make_error(where + " out of order");
        }
        auto event = events::decode_event_text(event_text.json);
        if (!event) {
            return core::make_error(where + ": " + event.error());
        }
        if (const auto* reading = reading_of(*event)) {
            t = reading->at ? from_unix_ms(*reading->at) : now;
        }
        if (auto status = apply(*state, *event, t); !status) {
            return core::make_error(where + ": " + status.error());
        }
        if (after_event) {
            after_event(*state, *event);
        }
    }
    if (record.status == "finished" && !state->result) {
        // A game closed without a game_over event (a game that could not start).
        auto result = events::result_from_json(json::parse(record.result_json, nullptr, false));
        state->result = result ? *result : events::Result{std::nullopt, "aborted"};
        state->abort_deadline.reset();
    }
    return state;
}

}  // namespace server
