#pragma once
// The Swiss machine (docs/tournaments.md, "Swiss"): what a request or a game's news does to a
// Swiss, as pure functions of a SwissState (swiss_state.h) and the time they are given; modelled
// on the arena's (arena.h). No storage, no sockets, no timers.
//
//   decide(state, input, now) → the events the input produces, or a refusal that changes nothing
//   round_due(state, now)     → whether the actor should send a RoundPass now
//   decide_time(state, now)   → what time alone does (the early end of a Swiss nobody can play)
//   apply(state, event)       → the state after the event
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/expected.h"
#include "server/tournament/swiss_state.h"

namespace server::tournament {

// What the Swiss is told.
namespace swiss_input {
struct Join {
    std::string player;
    int rating = 0;
    bool bot = false;
};
struct Withdraw {
    std::string player;
};
// The room of a paired game exists and its game_started reached the players.
struct GameStarted {
    int game = 0;
    std::string game_id;
};
struct GameFinished {
    int game = 0;
    std::optional<core::Side> winner;  // nothing: a draw (not in Sniderman)
};
// `side` did not make their first move in time: they lose by forfeit and are withdrawn.
struct FirstMoveMissed {
    int game = 0;
    core::Side side = core::Side::first;
};
// The paired game never took place (its room could not be made): both are absent for the round.
struct GameCancelled {
    int game = 0;
};
// The actor's pass when round_due says so; `present` are the players with a connection open.
struct RoundPass {
    std::vector<std::string> present;
};
}  // namespace swiss_input

using SwissInput = std::variant<swiss_input::Join, swiss_input::Withdraw, swiss_input::GameStarted,
                                swiss_input::GameFinished, swiss_input::FirstMoveMissed,
                                swiss_input::GameCancelled, swiss_input::RoundPass>;

// What happened to the Swiss: plain values, kept and replayed in order.
namespace swiss_event {
struct Joined {  // a late joiner is absent from the rounds already paired
    std::string player;
    int rating = 0;
    bool bot = false;
    friend bool operator==(const Joined&, const Joined&) = default;
};
struct Left {  // withdrew before the first round: no longer a player
    std::string player;
    friend bool operator==(const Left&, const Left&) = default;
};
struct Withdrew {
    std::string player;
    friend bool operator==(const Withdrew&, const Withdrew&) = default;
};
struct SwissPairedGame {
    int game = 0;
    std::string first;
    std::string second;
    friend bool operator==(const SwissPairedGame&, const SwissPairedGame&) = default;
};
// A round's pairing; every player neither paired nor given the bye is absent from it.
struct RoundPaired {
    int round = 0;
    std::vector<SwissPairedGame> games;
    std::optional<std::string> bye;
    SwissTime at = 0;
    friend bool operator==(const RoundPaired&, const RoundPaired&) = default;
};
struct GameStarted {
    int game = 0;
    std::string game_id;
    friend bool operator==(const GameStarted&, const GameStarted&) = default;
};
struct GameFinished {
    int game = 0;
    std::optional<core::Side> winner;
    bool forfeit = false;  // the loser did not make their first move
    SwissTime at = 0;
    friend bool operator==(const GameFinished&, const GameFinished&) = default;
};
struct GameCancelled {
    int game = 0;
    SwissTime at = 0;
    friend bool operator==(const GameCancelled&, const GameCancelled&) = default;
};
// The end: after the last round, or early (fewer than two players, no pairing possible).
struct Finished {
    SwissTime at = 0;
    bool early = false;
    friend bool operator==(const Finished&, const Finished&) = default;
};
}  // namespace swiss_event

using SwissEvent =
    std::variant<swiss_event::Joined, swiss_event::Left, swiss_event::Withdrew,
                 swiss_event::RoundPaired, swiss_event::GameStarted, swiss_event::GameFinished,
                 swiss_event::GameCancelled, swiss_event::Finished>;

// Why an input was refused; each has a stable name (swiss_error_name), the arena's where shared.
enum class SwissErrorCode : std::uint8_t {
    bad_field,
    already_joined,
    not_joined,
    tournament_finished,
    late_join_closed,
    bots_not_allowed,
    withdrawn,
    no_such_game,
    game_already_started,
    no_draws,
};
std::string_view swiss_error_name(SwissErrorCode code);

struct SwissRefusal {
    SwissErrorCode code = SwissErrorCode::bad_field;
    std::string message;
};

struct SwissDecision {
    std::vector<SwissEvent> events;
    std::optional<SwissRefusal> refusal;

    bool ok() const { return !refusal; }
    static SwissDecision refuse(SwissErrorCode code, std::string message) {
        return SwissDecision{{}, SwissRefusal{code, std::move(message)}};
    }
};

// Whether `config` makes a Swiss: 3–15 rounds, 10 s – 1 day between rounds, a real-time or
// correspondence clock.
core::Status check_config(const SwissConfig& config);
// A new Swiss with `config` and nobody in it; its first round is due at the start.
SwissState new_swiss(const SwissConfig& config);

// What `input` does to the Swiss in `state` at `now`.
SwissDecision decide(const SwissState& state, const SwissInput& input, SwissTime now);
// Whether a round is due at `now` (the actor then sends a RoundPass).
bool round_due(const SwissState& state, SwissTime now);
// What time alone does at `now`: at the start with fewer than two players, the early end.
std::vector<SwissEvent> decide_time(const SwissState& state, SwissTime now);
// When the next round is due; nothing while a round's games run and once finished.
std::optional<SwissTime> next_deadline(const SwissState& state);
// Applies one event. An error (an event that does not fit the state) leaves `state` as it was.
core::Status apply(SwissState& state, const SwissEvent& event);

// Whether late joining is still open: fewer than half the rounds paired.
bool late_join_open(const SwissState& state);

}  // namespace server::tournament
