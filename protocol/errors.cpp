#include "protocol/errors.h"

#include <array>

namespace protocol {

namespace {

// Two names a line, aligned by hand.
// clang-format off
constexpr std::array<std::string_view, error_code_count> code_names = {
    "hello_required",  "unsupported_protocol",
    "bad_json",        "unknown_type",
    "missing_field",   "bad_field",
    "frame_too_large", "rate_limited",
    "bad_token",       "bad_name",
    "no_such_seek",    "own_seek",
    "no_such_game",    "not_a_player",
    "not_your_turn",   "illegal_move",
    "game_over",       "not_supported",
    "no_draw_offer",   "no_rematch_offer",
    "wrong_phase",     "object_used",
    "chat_too_long",
    // Issue 13: clocks and the life of a game.
    "no_takeback_offer", "claim_too_early",
    // Issue 16: accounts, moderation, rated seeks.
    "name_taken",      "bad_credentials",
    "weak_password",   "account_required",
    "already_registered", "forbidden",
    "account_closed",  "muted",
    "no_such_player",  "outside_rating_range",
    // Issue 23.
    "chat_closed",
    "server_restarting",
    // Issue 25.
    "bots_busy",
    // Issue 43.
    "no_such_tournament", "tournament_finished",
    "already_joined",  "not_joined",
    "wrong_code",      "pause_wait",
    "berserk_not_allowed", "berserk_after_first_move",
    "already_berserk",
    "internal_error",
};
// clang-format on

}  // namespace

std::string_view error_code_name(ErrorCode code) {
    return code_names[static_cast<std::size_t>(code)];
}

std::optional<ErrorCode> parse_error_code(std::string_view name) {
    for (int i = 0; i < error_code_count; ++i) {
        if (code_names[static_cast<std::size_t>(i)] == name) {
            return static_cast<ErrorCode>(i);
        }
    }
    return std::nullopt;
}

}  // namespace protocol
