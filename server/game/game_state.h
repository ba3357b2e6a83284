#pragma once
// A game as a value: everything its events decide (the position, the Sniderman match, offers,
// the result, the clocks) and nothing about who watches it. The game machine
// (game_machine.h) decides a request's events from a state and applies events to a state; the
// room (room.h) owns one state and feeds it only committed events, so a replay of the stored
// events through the same `apply` is the live state. Copyable: a decision works on a copy.
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/game.h"
#include "core/sniderman/match.h"
#include "protocol/events.h"
#include "protocol/time_control.h"
#include "server/game/game_clock.h"
#include "server/store/store.h"

namespace server {

// A core::Game that copies by cloning.
class ClonedGame {
public:
    ClonedGame() = default;
    explicit ClonedGame(std::unique_ptr<core::Game> game) : game_(std::move(game)) {}
    ClonedGame(const ClonedGame& other) : game_(other.game_ ? other.game_->clone() : nullptr) {}
    ClonedGame& operator=(const ClonedGame& other) {
        game_ = other.game_ ? other.game_->clone() : nullptr;
        return *this;
    }
    ClonedGame(ClonedGame&&) noexcept = default;
    ClonedGame& operator=(ClonedGame&&) noexcept = default;

    explicit operator bool() const { return game_ != nullptr; }
    core::Game& operator*() const { return *game_; }
    core::Game* operator->() const { return game_.get(); }

private:
    std::unique_ptr<core::Game> game_;
};

// Everything in a GameState but its histories (below).
struct GameStateNow {
    // What the game was created with (fixed).
    GameRecord record;
    core::VariantId variant = core::VariantId::chessence;
    core::RuleSet rules = core::RuleSet::house;
    protocol::TimeControl time_control;

    // What its events made of it.
    std::int64_t version = 0;                     // events applied
    ClonedGame game;                              // Chessence, Chesica
    std::optional<core::sniderman::Match> match;  // Sniderman
    std::optional<protocol::events::Result> result;
    std::optional<int> draw_offer;      // seat that offered
    std::optional<int> rematch_offer;   // seat that offered
    std::optional<int> takeback_offer;  // seat that offered
    std::optional<std::string> rematch_game;
    bool spectator_chat = true;      // the players have not closed the spectators' chat
    std::int64_t round_version = 0;  // Sniderman: version of the current round's round_started
    std::array<int, 2> moretime_given{0, 0};    // moretime events by the seat that gave them
    std::array<bool, 2> berserk{false, false};  // issue 43: the seats that went berserk

    // The clocks: what the events made of them, and when a real-time game is aborted if nobody
    // acts.
    GameClock clock;
    std::optional<ServerTime> abort_deadline;

    // "white"/"black", "player0"/"player1".
    std::string seat_name(int seat) const;
    std::optional<int> seat_from_name(const std::string& name) const;
    std::optional<int> seat_of(const std::string& player_id) const;
    // The seat that must act now (move, name, choose); nothing once the game is over.
    std::optional<int> acting_seat() const;
    // The game being played (Sniderman: the current round).
    const core::Game& current_game() const;
    // Moves played in the whole game (every round of a Sniderman match).
    std::size_t move_count() const;
    // A tournament's game (issue 43): no abort, no rematch, a missed first move loses.
    bool in_tournament() const { return !record.tournament_id.empty(); }
};

struct GameState : GameStateNow {
    // The position after each ply (Sniderman: of the round), and the clocks after each ply
    // (Chessence, Chesica: [0] the start) for takebacks: they grow with the game.
    std::vector<std::string> fens;
    std::vector<protocol::events::ClockReading> clock_history;

    // False in a scratch copy: applying an event then adds nothing to the histories.
    bool keeps_history = true;

    // A copy to decide an action on (a move, a name, a side): the state without its histories,
    // which it does not extend, so that a decision costs nothing proportional to the game's
    // length (nor the position string of every ply). Only a takeback reads the histories; it
    // decides on a whole copy.
    GameState scratch() const;
};

// The state of the game `record` describes before any event, its clocks set as of `now`. An error
// names what is wrong with the record.
core::Expected<GameState> initial_state(const GameRecord& record, ServerTime now);

}  // namespace server
