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

}  // namespace protocol
