#pragma once
// The game machine: what a request does to a game, as pure functions of a GameState
// (game_state.h) and the time they are given. No I/O, no strands, no timers, no clock of its own.
//
//   decide(state, command, now) → the events the request produces, or the error it gets
//   apply(state, event, now)    → the state after the event
//
// The room (room.h) is the actor around it: it orders requests, calls decide, commits the events,
// then applies them and tells the watchers. Restoring a game applies its stored events through the
// same `apply`, so the live state and a replay agree by construction. The rules of the games are
// in core/; the rules of time in game_clock.h; this is where a player's request meets them.
//
// Files: game_machine.cpp (dispatch, moves, resignation, draws, rematches, the spectators' chat
// switch, and the reducer), game_machine_clock.cpp (flag fall, abort, claims, more time; the clock
// part of the reducer), game_machine_takeback.cpp, game_machine_sniderman.cpp (naming, choosing,
// captures, rounds).
#include <array>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/errors.h"
#include "protocol/events.h"
#include "protocol/requests.h"
#include "server/game/downtime.h"
#include "server/game/game_state.h"

namespace server {

// A request as the machine sees it: what was asked, by whom, and what the room knows around it.
struct Command {
    protocol::Request request;
    std::optional<int> seat;  // the asker's seat; nothing for a spectator
    std::string player_id;
    std::string name;  // the asker's display name (a spectator's chat line)
    int lag_ms = 0;    // the asker's measured round trip (0: not measured)
    // Since when each seat has had no connection to the room (claims against a player who left).
    std::array<std::optional<ServerTime>, 2> gone_since;
    std::string new_game_id;  // the id a rematch started now would get
};

// The outcome of a decision: events to commit (possibly none), or an error that changes nothing.
struct Decision {
    std::vector<protocol::events::RoomEvent> events;
    std::optional<protocol::ProtocolError> error;

    static Decision refuse(protocol::ErrorCode code, std::string message) {
        return Decision{{}, protocol::ProtocolError{code, std::move(message)}};
    }
};

// What `command` does to the game in `state` at `now`.
Decision decide(const GameState& state, const Command& command, ServerTime now);
// What time alone does at `now`: game_over when the running clock's flag fell (timeout) or a first
// move did not come in time (aborted); nothing otherwise.
std::vector<protocol::events::RoomEvent> decide_time(const GameState& state, ServerTime now);
// When decide_time next has something to say (a flag, a first move's window); nothing if never.
std::optional<ServerTime> next_deadline(const GameState& state);
// Since when each seat has had no connection to the room (none: connected now).
using GoneSince = std::array<std::optional<ServerTime>, 2>;
// What the players' absence alone does at `now`: an unlimited game both players have left for
// abandoned_unlimited_after ends (game_over: aborted before both moved, else a draw, abandoned);
// nothing otherwise.
std::vector<protocol::events::RoomEvent> decide_absence(const GameState& state,
                                                        const GoneSince& gone_since,
                                                        ServerTime now);
// When decide_absence will end the game if nobody comes back; nothing if it never will.
std::optional<ServerTime> absence_deadline(const GameState& state, const GoneSince& gone_since);

// Applies one event: its game part, then its clock part. A move's notation becomes canonical.
// With `derived`, also fills in what the event's live broadcast adds (the position after a move,
// an object's text). With `position` too, a Chessence or Chesica move's position goes there as
// text instead (protocol::position_fields_text: no JSON tree on the move's road). An error leaves
// `state` as it was only for the game part's validation; the caller treats a failed apply of a
// committed event as a bug.
core::Status apply(GameState& state, protocol::events::RoomEvent& event, ServerTime now,
                   nlohmann::json* derived = nullptr, std::string* position = nullptr);
// Called by replay after each event is applied, with the state it left.
using AfterEvent = std::function<void(const GameState&, const protocol::events::RoomEvent&)>;
// The state of a stored game: `record` with `events` applied in order (versions 1, 2, …).
core::Expected<GameState> replay(const GameRecord& record, const std::vector<StoredEvent>& events,
                                 ServerTime now, const AfterEvent& after_event = {});

// After a restart: the time the server was down while a clock ran, or while a first move was
// awaited, is charged to nobody (the deadlines move on by it).
void resume(GameState& state, ServerTime now, const Downtime& downtime);

// Milliseconds until the opponent of a seat that has been gone since `gone_since` may claim
// against it; nothing while the seat is present (no `gone_since`) or claims do not apply.
std::optional<std::int64_t> claim_in(const GameState& state,
                                     const std::optional<ServerTime>& gone_since, ServerTime now);

// --- Parts of the machine, one file each (called through decide and apply).
Decision decide_move(const GameState& state, const Command& command, ServerTime now);
Decision decide_clock_request(const GameState& state, const Command& command, ServerTime now);
Decision decide_takeback(const GameState& state, const Command& command, ServerTime now);
Decision decide_sniderman(const GameState& state, const Command& command, ServerTime now);
core::Status apply_takeback(GameState& state, const protocol::events::Takeback& takeback,
                            nlohmann::json* derived);
core::Status apply_sniderman(GameState& state, protocol::events::RoomEvent& event,
                             nlohmann::json* derived);
// The two halves of apply: the rules, then the clocks.
core::Status apply_game(GameState& state, protocol::events::RoomEvent& event,
                        nlohmann::json* derived, std::string* position = nullptr);
void apply_clock(GameState& state, const protocol::events::RoomEvent& event, ServerTime now);
// Applies an action event (move, object_named, side_chosen) of `seat` to `scratch` and appends it
// to `decision`: between the game part and the clock part, writes into it the clocks the action
// leaves (GameClock::after_action, knowing by then who must act next). The refusal otherwise:
// `refused_as` with the rules' message, or game_over when the mover's time ran out before the
// action arrived (lag credit included). `scratch` may then be half changed.
std::optional<protocol::ProtocolError> append_action(GameState& scratch, Decision& decision,
                                                     protocol::events::RoomEvent event, int seat,
                                                     const Command& command, ServerTime now,
                                                     protocol::ErrorCode refused_as);
// game_over with `result`, with the clocks stopped at `now` in a timed game.
protocol::events::GameOver game_over(const GameState& state, protocol::events::Result result,
                                     ServerTime now);
// Applies `event` to `scratch` and appends it to `decision` (a decision of several events sees
// each one's effect before the next); the error, and nothing appended, if it cannot be applied.
core::Status append_event(GameState& scratch, Decision& decision, protocol::events::RoomEvent event,
                          ServerTime now);
// The events a new game starts with (Sniderman: the first deal), for a state before any event.
std::vector<protocol::events::RoomEvent> opening_events(const GameState& state);

}  // namespace server
