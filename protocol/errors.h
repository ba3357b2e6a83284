#pragma once
// The stable error codes of protocol v1 (docs/protocol.md, "Error codes"), in one place.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace protocol {

enum class ErrorCode : std::uint8_t {
    hello_required,
    unsupported_protocol,
    bad_json,
    unknown_type,
    missing_field,
    bad_field,
    frame_too_large,
    rate_limited,
    bad_token,
    bad_name,
    no_such_seek,
    own_seek,
    no_such_game,
    not_a_player,
    not_your_turn,
    illegal_move,
    game_over,
    not_supported,
    no_draw_offer,
    no_rematch_offer,
    wrong_phase,
    object_used,
    chat_too_long,
    // issue 13: clocks and the life of a game
    no_takeback_offer,
    claim_too_early,
    // Issue 16: accounts, moderation, rated seeks.
    name_taken,
    bad_credentials,
    weak_password,
    account_required,
    already_registered,
    forbidden,
    account_closed,
    muted,
    no_such_player,
    outside_rating_range,
    // Issue 23: the players closed the spectators' chat.
    chat_closed,
    // Issue 24: the server is shutting down (after server_restart); send it again after
    // reconnecting.
    server_restarting,
    // Issue 25: no bot can take a game against the computer now (the bot pool's queue is full, or
    // the server runs no bot threads).
    bots_busy,
    // Issue 43: tournaments.
    no_such_tournament,
    tournament_finished,
    already_joined,
    not_joined,
    wrong_code,  // a private tournament's join code missing or wrong
    pause_wait,  // a player who paused must wait before coming back
    // Issue 43: berserk in a tournament game — not allowed in this game (not a tournament game,
    // a tournament without berserk, a clock without a base time), after the player's own first
    // move, or a second time.
    berserk_not_allowed,
    berserk_after_first_move,
    already_berserk,
    internal_error,
};

// Every code, in declaration order (for documentation checks and tests).
inline constexpr int error_code_count = static_cast<int>(ErrorCode::internal_error) + 1;

// The wire name of a code ("illegal_move").
std::string_view error_code_name(ErrorCode code);
std::optional<ErrorCode> parse_error_code(std::string_view name);

// An answer to a request that could not be carried out: stable code, human text.
struct ProtocolError {
    ErrorCode code = ErrorCode::internal_error;
    std::string message;
};

}  // namespace protocol
