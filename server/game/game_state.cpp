#include "server/game/game_state.h"

namespace server {

std::string GameStateNow::seat_name(int seat) const {
    if (variant == core::VariantId::sniderman) {
        return seat == 0 ? "player0" : "player1";
    }
    return std::string(
        core::side_name(variant, seat == 0 ? core::Side::first : core::Side::second));
}

std::optional<int> GameStateNow::seat_from_name(const std::string& name) const {
    for (int seat = 0; seat < 2; ++seat) {
        if (seat_name(seat) == name) {
            return seat;
        }
    }
    return std::nullopt;
}

std::optional<int> GameStateNow::seat_of(const std::string& player_id) const {
    for (int seat = 0; seat < 2; ++seat) {
        if (record.seats[static_cast<std::size_t>(seat)] == player_id) {
            return seat;
        }
    }
    return std::nullopt;
}

std::optional<int> GameStateNow::acting_seat() const {
    if (result) {
        return std::nullopt;
    }
    if (match) {
        switch (match->phase()) {
            case core::sniderman::MatchPhase::naming:
                return match->namer();
            case core::sniderman::MatchPhase::choosing:
                return match->chooser();
            case core::sniderman::MatchPhase::playing:
                return match->to_move_player();
            case core::sniderman::MatchPhase::finished:
                return std::nullopt;
        }
        return std::nullopt;
    }
    if (!game || game->outcome()) {
        return std::nullopt;
    }
    return game->to_move() == core::Side::first ? 0 : 1;
}

const core::Game& GameStateNow::current_game() const {
    return match ? match->round() : *game;
}

std::size_t GameStateNow::move_count() const {
    if (game) {
        return game->moves().size();
    }
    std::size_t moves = 0;
    if (match) {
        for (const auto& round : match->records()) {
            moves += round.moves.size();
        }
    }
    return moves;
}

GameState GameState::scratch() const {
    GameState copy;
    static_cast<GameStateNow&>(copy) = *this;
    copy.keeps_history = false;
    return copy;
}

core::Expected<GameState> initial_state(const GameRecord& record, ServerTime now) {
    GameState state;
    state.record = record;
    const auto variant = core::parse_variant(record.variant);
    if (!variant || record.seats.size() != 2) {
        return core::make_error("bad game record");
    }
    auto control = protocol::parse_time_control(record.time_control);
    if (!control) {
        return core::make_error("bad game record: " + control.error());
    }
    state.variant = *variant;
    state.rules = core::parse_rule_set(record.rules).value_or(core::RuleSet::house);
    state.time_control = *control;
    if (state.variant == core::VariantId::sniderman) {
        auto match = core::sniderman::Match::create(record.rounds, record.seed);
        if (!match) {
            return core::make_error(match.error());
        }
        state.match.emplace(std::move(*match));
        state.fens = {state.match->round().fen()};
    } else {
        core::GameOptions options;
        options.rules = state.rules;
        if (!record.start_fen.empty()) {
            options.fen = record.start_fen;
        }
        auto game = core::make_game(state.variant, options);
        if (!game) {
            return core::make_error(game.error());
        }
        state.game = ClonedGame(std::move(*game));
        state.fens = {state.game->fen()};
    }
    // A correspondence clock runs at once for the first seat to act.
    state.clock = GameClock(state.time_control);
    state.clock.set_by_player(state.match.has_value());
    state.clock.start(state.acting_seat(), now);
    if (state.clock.timed() && !state.match) {
        state.clock_history.push_back(state.clock.reading(now));
    }
    if (state.time_control.real_time()) {
        state.abort_deadline = now + first_move_window;  // nobody has acted yet
    }
    return state;
}

}  // namespace server
