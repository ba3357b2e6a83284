#pragma once
// What the browser may send (docs/protocol.md, "Client → server"): typed, validated requests parsed
// from one text frame without exceptions. A frame either becomes a Request whose every field has
// been checked, or a RequestError carrying a stable code, a human message and the echoed `id`.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/variant.h"
#include "protocol/errors.h"
#include "protocol/limits.h"
#include "protocol/time_control.h"

namespace protocol {

enum class RequestType : std::uint8_t {
    hello,
    set_name,
    lobby_subscribe,
    lobby_unsubscribe,
    lobby_games,  // issue 24: a page of the games in progress
    seek_create,
    seek_cancel,
    seek_accept,
    quick_pair,
    watch,
    unwatch,
    move,
    resign,
    draw_offer,
    draw_accept,
    draw_decline,
    rematch_offer,
    rematch_accept,
    name_object,
    choose_side,
    chat,
    // issue 13: clocks and the life of a game
    abort,
    claim_victory,
    claim_draw,
    takeback_offer,
    takeback_accept,
    takeback_decline,
    moretime,
    spectator_chat,  // issue 23: a player opens or closes the spectators' chat
    berserk,         // issue 43: a tournament game's player cuts their own clock
    // Issue 16: accounts and moderation ("register" on the wire).
    register_account,
    login,
    logout,
    change_password,
    admin_mute,
    admin_close,
    // Issue 43: tournaments (docs/protocol.md, "Tournaments").
    tournament_watch,
    tournament_unwatch,
    tournament_join,
    tournament_withdraw,
    tournament_pause,
    tournament_chat,  // a line of the tournament's chat (accounts only)
    ping,
};

inline constexpr int request_type_count = static_cast<int>(RequestType::ping) + 1;

std::string_view request_type_name(RequestType type);
// register, login, logout, change_password, admin_mute, admin_close (issue 16).
bool is_account_request(RequestType type);
// The lobby's requests: lobby_subscribe/unsubscribe, lobby_games, seek_*, quick_pair.
bool is_lobby_request(RequestType type);
// tournament_watch, tournament_unwatch, tournament_join, tournament_withdraw, tournament_pause,
// tournament_chat.
bool is_tournament_request(RequestType type);
std::optional<RequestType> parse_request_type(std::string_view name);

// One validated client request. Only the fields of its type are set; the parser guarantees that
// every field the type requires is present and within its limits.
struct Request {
    RequestType type = RequestType::ping;
    nlohmann::json id;  // null when the client sent none; echoed in the reply

    int protocol = 0;                  // hello
    std::optional<std::string> token;  // hello
    std::optional<std::string> name;   // hello (optional), set_name (trimmed, valid)

    core::VariantId variant = core::VariantId::chessence;  // seek_create, quick_pair
    core::RuleSet rules = core::RuleSet::house;            // seek_create, quick_pair
    std::optional<core::Side> side;  // seek_create: nullopt = random; choose_side: first = odd
    int rounds = 3;                  // seek_create, quick_pair (Sniderman)
    bool is_private = false;         // seek_create
    TimeControl clock;               // seek_create, quick_pair (default: unlimited)
    bool rated = false;              // seek_create, quick_pair
    std::optional<int> rating_min;   // seek_create: the accepter's rating range
    std::optional<int> rating_max;   // seek_create
    // seek_create (issue 25): "opponent": "computer" plays the server's bot at `level`
    // (min_bot_level..max_bot_level) at once; casual, public, no rating range.
    bool computer = false;
    int level = 0;

    std::string seek_id;                // seek_cancel, seek_accept
    std::string game_id;                // every game request
    std::optional<std::int64_t> since;  // watch
    bool full = false;                  // watch: a snapshot even when `since` is given
    std::string key;                    // watch: a private game's access key
    std::string move;                   // move
    int object = 0;                     // name_object
    std::string text;                   // chat, tournament_chat
    bool open = true;                   // spectator_chat
    int offset = 0;                     // lobby_games
    int limit = lobby_games_page;       // lobby_games
    std::string tournament_id;          // every tournament request
    std::string code;                   // tournament_join: a private tournament's join code

    std::string username;      // register, login (valid: 3-20 letters, digits, '_', '-')
    std::string password;      // register, login, change_password (the current one)
    std::string new_password;  // change_password
    bool everywhere = false;   // logout: every session of the account
    std::string player_id;     // admin_mute, admin_close
    bool muted = true;         // admin_mute
    bool closed = true;        // admin_close
};

struct RequestError {
    ProtocolError error;
    nlohmann::json id;  // the request's id if it could be read, else null
    // A game request's `game_id` when it was read before the problem was found, else "": the
    // error is about that game and says so.
    std::string game_id;
};

using ParseResult = std::variant<Request, RequestError>;

// Parses and validates one text frame: a move frame by read_move_frame, anything else (or a move
// frame it does not take) by parse_request_tree.
ParseResult parse_request(std::string_view text);
// The general road: the frame as a JSON tree, every type, every error.
ParseResult parse_request_tree(std::string_view text);
// The fast road (move_frame.cpp): a valid {"type":"move","game_id":…,"move":…} with an optional
// "id", its strings printable ASCII without escapes, read without a tree; nothing for anything
// else, which parse_request_tree then reads. What it reads, parse_request_tree reads the same.
std::optional<Request> read_move_frame(std::string_view text);

// A display name trimmed of surrounding spaces, or bad_name: 1–20 characters, ASCII letters,
// digits, space, '_', '-', '.'.
std::variant<std::string, ProtocolError> validate_name(std::string_view raw);

// A username, or bad_name: 3-20 ASCII letters, digits, '_' and '-'.
std::optional<ProtocolError> check_username(std::string_view name);

// The number of Unicode code points in valid UTF-8 text.
std::size_t utf8_length(std::string_view text);

}  // namespace protocol
