// Takebacks (Chessence, Chesica): a player asks to undo their last move — or, when it is their
// turn, the opponent's last move and their own before it — and the opponent accepts or declines.
// The accepted takeback is one stored event; applying it rebuilds the game without those moves and
// puts the clocks back to what they were after the move before them.
#include "protocol/messages.h"
#include "server/game/game_machine.h"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::RequestType;
namespace events = protocol::events;

core::Status apply_takeback(GameState& state, const events::Takeback& takeback, json* derived) {
    if (state.match) {
        return core::make_error("a takeback in a sniderman game");
    }
    if (!state.seat_from_name(takeback.by)) {
        return core::make_error("a takeback by an unknown seat");
    }
    const auto moves = state.game->moves();
    if (takeback.plies < 1 || takeback.plies > 2 ||
        static_cast<std::size_t>(takeback.plies) > moves.size()) {
        return core::make_error("cannot take back " + std::to_string(takeback.plies) + " of " +
                                std::to_string(moves.size()) + " moves");
    }
    const auto keep = moves.size() - static_cast<std::size_t>(takeback.plies);
    core::GameOptions options;
    options.rules = state.rules;
    options.fen = state.game->start_fen();
    auto game = core::make_game(state.variant, options);
    if (!game) {
        return core::make_error(game.error());
    }
    const int first_mover = (*game)->to_move() == core::Side::first ? 0 : 1;
    for (std::size_t i = 0; i < keep; ++i) {
        if (auto played = (*game)->play(moves[i]); !played) {
            return core::make_error(played.error());
        }
    }
    state.game = ClonedGame(std::move(*game));
    state.fens.resize(keep + 1);
    if (state.clock_history.size() > keep + 1) {
        state.clock_history.resize(keep + 1);
    }
    std::array<bool, 2> acted{};
    acted[static_cast<std::size_t>(first_mover)] = keep >= 1;
    acted[static_cast<std::size_t>(1 - first_mover)] = keep >= 2;
    state.clock.set_acted(acted);
    state.draw_offer.reset();
    state.takeback_offer.reset();
    if (derived) {
        *derived = protocol::position_json(*state.game);
    }
    return core::ok_status();
}

Decision decide_takeback(const GameState& state, const Command& command, ServerTime now) {
    if (state.match) {
        return Decision::refuse(ErrorCode::not_supported, "Sniderman has no takebacks");
    }
    if (state.result) {
        return Decision::refuse(ErrorCode::game_over, "the game is over");
    }
    const int seat = *command.seat;
    const auto moves = state.game->moves().size();
    // What the offerer's takeback undoes: their last move, and the opponent's after it when the
    // offerer is to move again.
    const auto plies_for = [&](int offerer) {
        return (state.game->to_move() == core::Side::first ? 0 : 1) == offerer ? 2 : 1;
    };
    const auto take_back = [&](int offerer) {
        const int plies = plies_for(offerer);
        events::Takeback takeback{state.seat_name(offerer), plies, std::nullopt};
        if (static_cast<std::size_t>(plies) > moves) {
            return Decision::refuse(ErrorCode::wrong_phase, "cannot take back " +
                                                                std::to_string(plies) + " of " +
                                                                std::to_string(moves) + " moves");
        }
        const auto keep = moves - static_cast<std::size_t>(plies);
        if (keep < state.clock_history.size()) {
            takeback.clock = state.clock_history[keep];
            takeback.clock->at = unix_ms(now);  // the clocks as they were, from now on
        }
        GameState scratch = state;
        Decision decision;
        if (auto taken = append_event(scratch, decision, std::move(takeback), now); !taken) {
            return Decision::refuse(ErrorCode::wrong_phase, taken.error());
        }
        return decision;
    };
    const bool opponent_offered = state.takeback_offer == 1 - seat;
    const auto type = command.request.type;
    if (type == RequestType::takeback_offer) {
        if (opponent_offered) {
            return take_back(1 - seat);
        }
        if (state.takeback_offer == seat) {
            return Decision{};  // repeating one's own offer does nothing
        }
        if (static_cast<std::size_t>(plies_for(seat)) > moves) {
            return Decision::refuse(ErrorCode::wrong_phase, "you have no move to take back");
        }
        Decision decision;
        decision.events.push_back(events::TakebackOffered{state.seat_name(seat)});
        return decision;
    }
    if (!opponent_offered) {
        return Decision::refuse(ErrorCode::no_takeback_offer,
                                "your opponent has not asked for a takeback");
    }
    if (type == RequestType::takeback_accept) {
        return take_back(1 - seat);
    }
    Decision decision;
    decision.events.push_back(events::TakebackDeclined{state.seat_name(seat)});
    return decision;
}

}  // namespace server
