#pragma once
// Every room event, as a type: what a game is made of (docs/protocol.md, "Events"). A room writes
// its events through these types, the store keeps them in their stored form (encode_event), and the
// room's restore, the records, the HTTP API and the schema generator read them back through
// decode_event. The stored form is minimal: only what happened, never what can be derived from it
// (positions, legal moves, texts). The live broadcast adds the derived position (see
// broadcast_event in protocol/messages.h).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/expected.h"

namespace protocol::events {

// The two clocks at an event of a game with a clock (docs/protocol.md, "Clocks"): what each seat
// has left, and the seat whose clock runs from this event on. Written as {"white": ms, "black": ms,
// "running": seat|null, "at": unix ms}, keyed by player0/player1 in Sniderman.
struct ClockReading {
    std::array<std::int64_t, 2> left{0, 0};  // milliseconds, by seat
    std::optional<int> running;              // seat index
    bool by_player = false;                  // Sniderman: keys player0/player1
    // When the server took the reading: milliseconds since the Unix epoch (readings stored before
    // this field existed have none).
    std::optional<std::int64_t> at;

    friend bool operator==(const ClockReading&, const ClockReading&) = default;
};

// A move (a capture in Sniderman). `by` is the side that moved ("white"/"black", "odd"/"even");
// `player` the seat that played it in Sniderman ("player0"/"player1"), where sides change hands.
struct Move {
    std::string move;  // canonical notation
    std::string by;
    std::optional<std::string> player;
    int ply = 0;  // plies played in the game (the Sniderman round) including this one
    std::optional<ClockReading> clock = std::nullopt;  // the clocks once the move was accepted
    int lag_ms = 0;  // network lag credited to the mover (real time)
};

// {winner, reason}: winner a side ("white", …), in Sniderman a seat, or nothing for a draw.
struct Result {
    std::optional<std::string> winner;
    std::string reason;
};

struct GameOver {
    Result result;
    std::optional<ClockReading> clock = std::nullopt;  // the clocks when the game ended
};

struct DrawOffered {
    std::string by;  // seat
};

struct DrawDeclined {
    std::string by;
};

struct RematchOffered {
    std::string by;
};

struct RematchStarted {
    std::string new_game_id;
};

// Legacy: chat lines were room events until issue 23; logs stored before still hold them, so they
// are read (and replayed as nothing). Chat now lives beside the log (server/store/store.h,
// ChatLine).
struct Chat {
    std::string from;                 // display name when written
    std::string player_id;            // the writer
    std::optional<std::string> seat;  // the writer's seat; nothing for a spectator
    std::string text;
    std::string at;  // UTC, ISO 8601
};

// Sniderman: a round is dealt (the first at the match's start, the next after each round_over).
struct RoundStarted {
    int round = 1;      // 1-based
    std::string fen;    // the deal
    std::string namer;  // the seat that names this round's object
};

struct ObjectNamed {
    std::string by;  // seat
    int object = 0;  // 1..10
    std::optional<ClockReading> clock = std::nullopt;
    int lag_ms = 0;
};

struct SideChosen {
    std::string by;    // the chooser's seat
    std::string odd;   // seat
    std::string even;  // seat
    std::optional<ClockReading> clock = std::nullopt;
    int lag_ms = 0;
};

struct RoundOver {
    int round = 1;
    std::string winner;              // "odd" | "even"
    std::string winner_player;       // seat
    std::array<int, 2> score{0, 0};  // rounds won by player0, player1
};

// Takebacks (issue 13): an offer, its refusal, and the takeback itself, which undoes the last
// `plies` moves (1 or 2) and puts the clocks back to what they were after the move before them.
struct TakebackOffered {
    std::string by;  // seat
};

struct TakebackDeclined {
    std::string by;
};

struct Takeback {
    std::string by;  // the seat that asked for it
    int plies = 1;
    std::optional<ClockReading> clock = std::nullopt;
};

// `by` gives the opponent `ms` more on their clock (real time).
struct MoreTime {
    std::string by;
    int ms = 0;
    ClockReading clock{};  // the clocks after it
};

// A player opens or closes the spectators' chat of the game (issue 23); it starts open.
struct SpectatorChat {
    std::string by;  // seat
    bool open = true;
};

// A tournament game's player went berserk (issue 43, docs/tournaments.md "Berserk"): `by`'s base
// time is cut (berserk_clock) and it gets no increment for the rest of the game. `clock`: the
// clocks after it.
struct Berserk {
    std::string by;  // seat
    ClockReading clock{};
};

using RoomEvent =
    std::variant<Move, GameOver, DrawOffered, DrawDeclined, RematchOffered, RematchStarted, Chat,
                 RoundStarted, ObjectNamed, SideChosen, RoundOver, TakebackOffered,
                 TakebackDeclined, Takeback, MoreTime, SpectatorChat, Berserk>;

// The wire name of the event's kind ("move", "game_over", …).
std::string_view kind_name(const RoomEvent& event);

// The stored form: {"kind": …, the event's own fields}.
nlohmann::json encode_event(const RoomEvent& event);
// Its text: encode_event's tree as to_text writes it, byte for byte (a move, the most frequent
// event, is written without the tree).
std::string encode_event_text(const RoomEvent& event);

// Reads an event in its stored form. Fields it does not know are ignored (so an older, fatter
// form reads too); a missing or mistyped field is an error naming it.
core::Expected<RoomEvent> decode_event(const nlohmann::json& object);
core::Expected<RoomEvent> decode_event_text(std::string_view text);

nlohmann::json result_json(const Result& result);
nlohmann::json clock_json(const ClockReading& clock);
core::Expected<ClockReading> clock_from_json(const nlohmann::json& object);
core::Expected<Result> result_from_json(const nlohmann::json& object);

}  // namespace protocol::events
