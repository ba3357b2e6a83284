#pragma once
// The round-robin machine (docs/tournaments.md, "Round robin"): what a request or a game's news
// does to a round robin, as pure functions of a RoundRobinState (roundrobin_state.h) and the
// time they are given. No storage, no sockets, no timers, no clock of its own; the same shape as
// the arena's (arena.h).
//
//   decide(state, input, now) → the events the input produces, or a refusal that changes nothing
//   decide_time(state, now)   → what time alone does (the start)
//   apply(state, event)       → the state after the event
//
// Players join until the start, when the schedule is fixed (Started). From then on a game is
// played as soon as both its players are there: the actor sends a ReadyPass every few seconds
// and the pass puts them in it (Paired); a game not started by its deadline is forfeited by the
// absent player, or unplayed. The last game resolved brings Finished in the same decision.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/expected.h"
#include "server/tournament/roundrobin_state.h"

namespace server::tournament {

// The actor sends a ready pass at least this often.
inline constexpr std::int64_t ready_pass_interval_ms = 5'000;

// What the round robin is told.
namespace roundrobin_input {
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
    std::optional<core::Side> winner;  // nothing: a draw (never in Sniderman)
};
// `side` did not make their first move in time: they lose the game.
struct FirstMoveMissed {
    int game = 0;
    core::Side side = core::Side::first;
};
// The paired game's room could not be made: the game waits again.
struct GameCancelled {
    int game = 0;
};
// `present`: the players with a connection open on any page.
struct ReadyPass {
    std::vector<std::string> present;
};
}  // namespace roundrobin_input

using RoundRobinInput =
    std::variant<roundrobin_input::Join, roundrobin_input::Withdraw, roundrobin_input::GameStarted,
                 roundrobin_input::GameFinished, roundrobin_input::FirstMoveMissed,
                 roundrobin_input::GameCancelled, roundrobin_input::ReadyPass>;

// What happened to the round robin: plain values, kept and replayed in order.
namespace roundrobin_event {
struct Joined {
    std::string player;
    int rating = 0;
    bool bot = false;
    friend bool operator==(const Joined&, const Joined&) = default;
};
struct Left {  // withdrew before the start: no longer a player
    std::string player;
    friend bool operator==(const Left&, const Left&) = default;
};
// The start: `players` in starting-number order (1 first); the schedule follows from it.
struct Started {
    std::vector<std::string> players;
    RoundRobinTime at = 0;
    friend bool operator==(const Started&, const Started&) = default;
};
struct Withdrew {  // after the start; their waiting games are Forfeited events of their own
    std::string player;
    friend bool operator==(const Withdrew&, const Withdrew&) = default;
};
struct Paired {  // both players are put in the game; its room is to be made
    int game = 0;
    RoundRobinTime at = 0;
    friend bool operator==(const Paired&, const Paired&) = default;
};
struct GameStarted {
    int game = 0;
    std::string game_id;
    friend bool operator==(const GameStarted&, const GameStarted&) = default;
};
struct GameFinished {
    int game = 0;
    std::optional<core::Side> winner;  // nothing: a draw
    friend bool operator==(const GameFinished&, const GameFinished&) = default;
};
struct GameCancelled {  // back to waiting
    int game = 0;
    friend bool operator==(const GameCancelled&, const GameCancelled&) = default;
};
struct Forfeited {  // a waiting game, won by `winner` without being played
    int game = 0;
    core::Side winner = core::Side::first;
    friend bool operator==(const Forfeited&, const Forfeited&) = default;
};
struct Unplayed {  // a waiting game past its deadline: 0 for both
    int game = 0;
    friend bool operator==(const Unplayed&, const Unplayed&) = default;
};
// The end: every game resolved, or `cancelled` at the start for want of players.
struct Finished {
    RoundRobinTime at = 0;
    bool cancelled = false;
    friend bool operator==(const Finished&, const Finished&) = default;
};
}  // namespace roundrobin_event

using RoundRobinEvent =
    std::variant<roundrobin_event::Joined, roundrobin_event::Left, roundrobin_event::Started,
                 roundrobin_event::Withdrew, roundrobin_event::Paired,
                 roundrobin_event::GameStarted, roundrobin_event::GameFinished,
                 roundrobin_event::GameCancelled, roundrobin_event::Forfeited,
                 roundrobin_event::Unplayed, roundrobin_event::Finished>;

// Why an input was refused; each has a stable name (roundrobin_error_name), the arena's where
// they mean the same.
enum class RoundRobinErrorCode : std::uint8_t {
    bad_field,
    already_joined,
    not_joined,
    tournament_finished,
    tournament_full,
    already_started,
    bots_not_allowed,
    no_such_game,
    game_already_started,
    no_draws,
};
std::string_view roundrobin_error_name(RoundRobinErrorCode code);

struct RoundRobinRefusal {
    RoundRobinErrorCode code = RoundRobinErrorCode::bad_field;
    std::string message;
};

// The events of an input (possibly none), or the refusal that changes nothing.
struct RoundRobinDecision {
    std::vector<RoundRobinEvent> events;
    std::optional<RoundRobinRefusal> refusal;

    bool ok() const { return !refusal; }
    static RoundRobinDecision refuse(RoundRobinErrorCode code, std::string message) {
        return RoundRobinDecision{{}, RoundRobinRefusal{code, std::move(message)}};
    }
};

// Whether `config` makes a round robin: 3–16 players, a real-time or correspondence clock, a
// game deadline in its range (roundrobin_state.h).
core::Status check_config(const RoundRobinConfig& config);
// A new round robin with `config` and nobody in it.
RoundRobinState new_round_robin(const RoundRobinConfig& config);

// What `input` does to the round robin in `state` at `now`.
RoundRobinDecision decide(const RoundRobinState& state, const RoundRobinInput& input,
                          RoundRobinTime now);
// What time alone does at `now`: the start once it has come (Started, or Finished cancelled with
// fewer than 3 players); nothing otherwise.
std::vector<RoundRobinEvent> decide_time(const RoundRobinState& state, RoundRobinTime now);
// When decide_time next has something to say (the start), or, once started, the earliest
// deadline of a waiting game (a ready pass then resolves it); nothing once finished or when no
// game waits.
std::optional<RoundRobinTime> next_deadline(const RoundRobinState& state);
// Applies one event. An error (an event that does not fit the state) leaves `state` as it was;
// for an event that was decided on this state it is a bug.
core::Status apply(RoundRobinState& state, const RoundRobinEvent& event);

}  // namespace server::tournament
