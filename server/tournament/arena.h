#pragma once
// The arena machine (docs/tournaments.md): what a request or a game's news does to an arena, as
// pure functions of an ArenaState (arena_state.h) and the time they are given. No storage, no
// sockets, no timers, no clock of its own.
//
//   decide(state, input, now) → the events the input produces, or a refusal that changes nothing
//   decide_time(state, now)   → what time alone does (the end)
//   apply(state, event)       → the state after the event
//
// The actor around it (a later slice) orders inputs, calls decide, keeps the events, applies them
// and carries out what they mean at the edges: a `Paired` becomes a room, a `Berserked` a cut
// clock (berserk_clock), a `Finished` the final standings. Replaying the kept events through
// `apply` gives the live state.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/expected.h"
#include "server/tournament/arena_state.h"

namespace server::tournament {

// The actor runs a pairing pass at least this often.
inline constexpr std::int64_t pairing_pass_interval_ms = 2'000;

// What the arena is told.
namespace arena_input {
struct Join {
    std::string player;
    int rating = 0;
};
struct Withdraw {
    std::string player;
};
struct Pause {
    std::string player;
};
struct ComeBack {
    std::string player;
};
// Before the player's first move of the game they are in (the room knows whether they moved).
struct Berserk {
    std::string player;
    bool has_moved = false;
};
// The room of a paired game exists and its game_started reached the players.
struct GameStarted {
    int game = 0;
    std::string game_id;
};
struct GameFinished {
    int game = 0;
    std::optional<core::Side> winner;  // nothing: a draw
    int plies = 0;
    bool first_berserk = false;  // as the room applied them (a berserk counts if either knows it)
    bool second_berserk = false;
};
// `side` did not make their first move in time: they lose the game and are withdrawn.
struct FirstMoveMissed {
    int game = 0;
    core::Side side = core::Side::first;
};
// The paired game never took place (its room could not be made): nobody scores.
struct GameCancelled {
    int game = 0;
};
// A pass over the waiting players; `present` are those with a connection open on any page.
struct PairingPass {
    std::vector<std::string> present;
};
// A line of the chat from an account (a player of the arena or not), under its name.
struct Say {
    std::string player;
    std::string name;
    std::string text;
};
}  // namespace arena_input

using ArenaInput =
    std::variant<arena_input::Join, arena_input::Withdraw, arena_input::Pause,
                 arena_input::ComeBack, arena_input::Berserk, arena_input::GameStarted,
                 arena_input::GameFinished, arena_input::FirstMoveMissed,
                 arena_input::GameCancelled, arena_input::PairingPass, arena_input::Say>;

// What happened to the arena: plain values, kept and replayed in order.
namespace arena_event {
struct Joined {
    std::string player;
    int rating = 0;
    friend bool operator==(const Joined&, const Joined&) = default;
};
struct Rejoined {  // a withdrawn player is back
    std::string player;
    int rating = 0;
    friend bool operator==(const Rejoined&, const Rejoined&) = default;
};
struct Left {  // withdrew before the start: no longer a player
    std::string player;
    friend bool operator==(const Left&, const Left&) = default;
};
struct Withdrew {
    std::string player;
    friend bool operator==(const Withdrew&, const Withdrew&) = default;
};
struct Paused {
    std::string player;
    bool counted = false;  // a top player's pause: it makes them wait before coming back
    ArenaTime at = 0;
    friend bool operator==(const Paused&, const Paused&) = default;
};
struct CameBack {
    std::string player;
    friend bool operator==(const CameBack&, const CameBack&) = default;
};
struct Berserked {
    int game = 0;
    core::Side side = core::Side::first;
    friend bool operator==(const Berserked&, const Berserked&) = default;
};
struct Paired {
    int game = 0;
    std::string first;
    std::string second;
    ArenaTime at = 0;
    friend bool operator==(const Paired&, const Paired&) = default;
};
struct GameStarted {
    int game = 0;
    std::string game_id;
    friend bool operator==(const GameStarted&, const GameStarted&) = default;
};
struct GameFinished {
    int game = 0;
    std::optional<core::Side> winner;
    int plies = 0;
    bool first_berserk = false;
    bool second_berserk = false;
    friend bool operator==(const GameFinished&, const GameFinished&) = default;
};
struct GameCancelled {
    int game = 0;
    friend bool operator==(const GameCancelled&, const GameCancelled&) = default;
};
struct Said {
    std::string player;
    std::string name;
    std::string text;
    ArenaTime at = 0;
    friend bool operator==(const Said&, const Said&) = default;
};
// The end: the games still running do not count.
struct Finished {
    ArenaTime at = 0;
    friend bool operator==(const Finished&, const Finished&) = default;
};
}  // namespace arena_event

using ArenaEvent =
    std::variant<arena_event::Joined, arena_event::Rejoined, arena_event::Left,
                 arena_event::Withdrew, arena_event::Paused, arena_event::CameBack,
                 arena_event::Berserked, arena_event::Paired, arena_event::GameStarted,
                 arena_event::GameFinished, arena_event::GameCancelled, arena_event::Finished,
                 arena_event::Said>;

// Why an input was refused; each has a stable name (arena_error_name).
enum class ArenaErrorCode : std::uint8_t {
    bad_field,
    already_joined,
    not_joined,
    tournament_finished,
    not_started,
    already_paused,
    not_paused,
    pause_wait,
    not_in_game,
    berserk_not_allowed,
    berserk_no_base_time,
    berserk_after_first_move,
    already_berserk,
    no_such_game,
    game_already_started,
};
std::string_view arena_error_name(ArenaErrorCode code);

struct ArenaRefusal {
    ArenaErrorCode code = ArenaErrorCode::bad_field;
    std::string message;
};

// The events of an input (possibly none), or the refusal that changes nothing.
struct ArenaDecision {
    std::vector<ArenaEvent> events;
    std::optional<ArenaRefusal> refusal;

    bool ok() const { return !refusal; }
    static ArenaDecision refuse(ArenaErrorCode code, std::string message) {
        return ArenaDecision{{}, ArenaRefusal{code, std::move(message)}};
    }
};

// Whether `config` makes an arena: 20–180 minutes, a real-time clock.
core::Status check_config(const ArenaConfig& config);
// A new arena with `config` and nobody in it.
ArenaState new_arena(const ArenaConfig& config);

// What `input` does to the arena in `state` at `now`.
ArenaDecision decide(const ArenaState& state, const ArenaInput& input, ArenaTime now);
// What time alone does at `now`: the end (Finished) once it has come; nothing otherwise.
std::vector<ArenaEvent> decide_time(const ArenaState& state, ArenaTime now);
// When decide_time next has something to say; nothing once the end was applied.
std::optional<ArenaTime> next_deadline(const ArenaState& state);
// Applies one event. An error (an event that does not fit the state) leaves `state` as it was;
// for an event that was decided on this state it is a bug.
core::Status apply(ArenaState& state, const ArenaEvent& event);

// The players waiting at `now` among `present`: active, in no game. (What a pass pairs.)
std::vector<std::string> waiting_players(const ArenaState& state,
                                         const std::vector<std::string>& present);

}  // namespace server::tournament
