#pragma once
// Field limits of protocol v1 that the parser enforces (docs/protocol.md). Transport limits (frame
// size, rates, queue length, timeouts) live in server/limits.h.
#include <cstddef>

namespace protocol {

inline constexpr std::size_t max_id_length = 64;      // `id` when a string
inline constexpr std::size_t max_token_length = 128;  // `token`
inline constexpr std::size_t max_ref_length = 64;     // `game_id`, `seek_id`
inline constexpr std::size_t max_move_length = 64;    // `move` notation
inline constexpr std::size_t min_name_length = 1;     // display names, after trimming
inline constexpr std::size_t max_name_length = 20;
inline constexpr std::size_t max_chat_length = 300;  // `chat.text`, in code points
inline constexpr int min_object = 1;                 // Sniderman objects
inline constexpr int max_object = 10;
// Issue 24: the games in progress come in pages, newest first (`lobby`, `lobby_games`).
inline constexpr int lobby_games_page = 50;       // in `lobby`, and `lobby_games`'s default
inline constexpr int max_lobby_games_page = 100;  // `lobby_games.limit`
// Issue 25: the computer's levels (`seek_create` with "opponent": "computer"), as the engine's.
inline constexpr int min_bot_level = 1;
inline constexpr int max_bot_level = 8;

// Issue 16: accounts (register, login) and rated seeks (rating_min / rating_max).
inline constexpr std::size_t min_username_length = 3;
inline constexpr std::size_t max_username_length = 20;
inline constexpr std::size_t min_password_length = 8;  // in code points
inline constexpr std::size_t max_password_bytes = 256;
// A private game's access key (32 hex digits; a little room for the future).
inline constexpr std::size_t max_access_key_length = 64;
// A private tournament's join code (issue 43), as its creator chose it.
inline constexpr std::size_t max_join_code_length = 64;
inline constexpr int min_rating_bound = 0;
inline constexpr int max_rating_bound = 4000;

}  // namespace protocol
