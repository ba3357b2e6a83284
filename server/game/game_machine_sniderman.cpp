// The phases of a Sniderman match in the game machine: naming the object, choosing ODD or EVEN,
// and the captures of each round, until a player has won the match.
#include <algorithm>

#include "core/sniderman/explain.h"
#include "protocol/messages.h"
#include "server/game/game_machine.h"
#include "server/game/game_views.h"

namespace server {

using core::sniderman::MatchPhase;
using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;
namespace events = protocol::events;
using events::RoomEvent;

namespace {

events::RoundStarted round_started_event(const GameState& state) {
    return {static_cast<int>(state.match->records().size()), state.match->round().fen(),
            state.seat_name(state.match->namer())};
}

// The position a Sniderman round ended in (the match has dealt the next round already).
json final_round_position(const GameState& state, const core::sniderman::RoundRecord& record) {
    core::GameOptions options;
    options.rules = state.rules;
    options.fen = record.start;
    options.object = record.object;
    auto round = core::make_game(core::VariantId::sniderman, options);
    if (!round) {
        return json::object();
    }
    for (const auto& move : record.moves) {
        (*round)->play(move);
    }
    return protocol::position_json(**round);
}

Decision decide_name_object(const GameState& state, const Command& command, ServerTime now) {
    const int seat = *command.seat;
    const auto& match = *state.match;
    if (match.phase() != MatchPhase::naming) {
        return Decision::refuse(ErrorCode::wrong_phase, "the object has been named");
    }
    if (match.namer() != seat) {
        return Decision::refuse(ErrorCode::not_your_turn,
                                "your opponent names this round's object");
    }
    const auto available = match.available_objects();
    const int object = command.request.object;
    if (std::find(available.begin(), available.end(), object) == available.end()) {
        return Decision::refuse(ErrorCode::object_used, "this object was used in an earlier round");
    }
    GameState scratch = state.scratch();
    Decision decision;
    if (auto refused =
            append_action(scratch, decision, events::ObjectNamed{state.seat_name(seat), object},
                          seat, command, now, ErrorCode::bad_field)) {
        return Decision{{}, refused};
    }
    return decision;
}

Decision decide_choose_side(const GameState& state, const Command& command, ServerTime now) {
    const int seat = *command.seat;
    if (state.match->phase() != MatchPhase::choosing) {
        return Decision::refuse(ErrorCode::wrong_phase, "this is not the time to choose a side");
    }
    if (state.match->chooser() != seat) {
        return Decision::refuse(ErrorCode::not_your_turn, "your opponent chooses the side");
    }
    const bool odd = command.request.side == core::Side::first;
    events::SideChosen chosen{state.seat_name(seat), state.seat_name(odd ? seat : 1 - seat),
                              state.seat_name(odd ? 1 - seat : seat)};
    GameState scratch = state.scratch();
    Decision decision;
    if (auto refused = append_action(scratch, decision, std::move(chosen), seat, command, now,
                                     ErrorCode::bad_field)) {
        return Decision{{}, refused};
    }
    return decision;
}

// A capture; the round's last one also ends the round and deals the next or ends the match, all in
// one decision.
Decision decide_capture(const GameState& state, const Command& command, ServerTime now) {
    const int seat = *command.seat;
    const auto& match = *state.match;
    if (match.phase() != MatchPhase::playing) {
        return Decision::refuse(ErrorCode::wrong_phase, "the round has not started yet");
    }
    if (match.to_move_player() != seat) {
        return Decision::refuse(ErrorCode::not_your_turn, "it is not your turn");
    }
    const std::size_t round_index = match.records().size() - 1;
    const auto odd_player = match.records()[round_index].odd_player;
    events::Move move{command.request.move, odd_player == seat ? "odd" : "even",
                      state.seat_name(seat), static_cast<int>(match.round().moves().size()) + 1};
    GameState scratch = state.scratch();
    Decision decision;
    if (auto refused = append_action(scratch, decision, std::move(move), seat, command, now,
                                     ErrorCode::illegal_move)) {
        return Decision{{}, refused};
    }
    const auto& after = *scratch.match;
    const auto record = after.records()[round_index];
    if (record.winner) {
        const int winner = *record.winner;
        std::vector<RoomEvent> next;
        next.push_back(events::RoundOver{static_cast<int>(round_index) + 1,
                                         record.odd_player == winner ? "odd" : "even",
                                         state.seat_name(winner), after.score()});
        if (after.phase() == MatchPhase::finished && after.winner()) {
            next.push_back(
                game_over(scratch, {state.seat_name(*after.winner()), "match_won"}, now));
        } else {
            next.push_back(round_started_event(scratch));
        }
        for (auto& event : next) {
            if (auto status = append_event(scratch, decision, std::move(event), now); !status) {
                return Decision::refuse(ErrorCode::internal_error, status.error());
            }
        }
    }
    return decision;
}

}  // namespace

Decision decide_sniderman(const GameState& state, const Command& command, ServerTime now) {
    const auto type = command.request.type;
    if (!state.match) {
        return Decision::refuse(ErrorCode::not_supported, type == RequestType::name_object
                                                              ? "only Sniderman has objects"
                                                              : "only Sniderman has ODD and EVEN");
    }
    if (state.result) {
        return Decision::refuse(ErrorCode::game_over, "the match is over");
    }
    switch (type) {
        case RequestType::name_object:
            return decide_name_object(state, command, now);
        case RequestType::choose_side:
            return decide_choose_side(state, command, now);
        default:
            return decide_capture(state, command, now);
    }
}

std::vector<RoomEvent> opening_events(const GameState& state) {
    std::vector<RoomEvent> out;
    if (state.match) {
        out.push_back(round_started_event(state));
    }
    return out;
}

core::Status apply_sniderman(GameState& state, RoomEvent& event, json* derived) {
    auto& match = *state.match;
    return std::visit(
        [&](auto& e) -> core::Status {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, events::Move>) {
                const auto player = state.seat_from_name(e.player.value_or(""));
                if (!player) {
                    return core::make_error("a move without its player");
                }
                const auto rounds_before = match.records().size();
                auto played = match.play(*player, e.move);
                if (!played) {
                    return core::make_error(played.error());
                }
                e.move = std::move(*played);
                const bool round_over = match.records().size() != rounds_before ||
                                        match.phase() == MatchPhase::finished;
                if (!round_over && state.keeps_history) {
                    state.fens.push_back(match.round().fen());
                }
                if (derived) {
                    *derived = round_over
                                   ? final_round_position(state, match.records()[rounds_before - 1])
                                   : protocol::position_json(match.round());
                }
            } else if constexpr (std::is_same_v<E, events::ObjectNamed>) {
                const auto by = state.seat_from_name(e.by);
                if (!by) {
                    return core::make_error("object_named by an unknown seat");
                }
                if (auto named = match.name_object(*by, e.object); !named) {
                    return named;
                }
                if (derived) {
                    *derived = json{{"text", core::sniderman::object_text(e.object)}};
                }
            } else if constexpr (std::is_same_v<E, events::SideChosen>) {
                const auto by = state.seat_from_name(e.by);
                if (!by) {
                    return core::make_error("side_chosen by an unknown seat");
                }
                if (auto chosen = match.choose_side(*by, e.odd == e.by); !chosen) {
                    return chosen;
                }
                if (derived) {
                    *derived = protocol::position_json(match.round());
                }
            } else if constexpr (std::is_same_v<E, events::RoundStarted>) {
                // The consequence of the round before it (or of the match's start).
                state.round_version = state.version + 1;
                if (state.keeps_history) {
                    state.fens = {match.round().fen()};
                }
                if (derived) {
                    *derived = json{{"board", protocol::board_json(match.round().board())},
                                    {"available_objects", match.available_objects()}};
                }
            } else if constexpr (std::is_same_v<E, events::RoundOver>) {
                // The consequence of the move before it; the broadcast says why.
                const auto& records = match.records();
                if (derived && e.round >= 1 &&
                    static_cast<std::size_t>(e.round) <= records.size()) {
                    *derived = round_why_json(records[static_cast<std::size_t>(e.round) - 1]);
                }
            } else {
                return core::make_error("a " + std::string(events::kind_name(e)) +
                                        " event in a sniderman game");
            }
            return core::ok_status();
        },
        event);
}

}  // namespace server
