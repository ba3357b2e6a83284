#pragma once
// Fencing numbers (issue 27). In cluster mode a node owns a live game through a lease that carries
// a fencing number, one that only grows per game. The store keeps, with each game, the newest
// fence that claimed it (GameRecord::fence, written by ClaimGame); an owner puts CheckFence with
// its own fence first in every batch it commits into its game, so once a newer owner has claimed
// the game the old owner's batches are refused whole: a node that lost its lease can never commit
// into the game again. store.h includes this header.
//
// A batch refused that way fails with an error that STARTS with fenced_error_prefix, exactly as
// the commit handler receives it: the stores report a failed batch's own error unchanged (the
// context they add — "rolled back with the transaction, which failed: …", "commit failed: …" —
// goes only on the other batches of the group, which were not fenced themselves). So is_fenced
// looks at the start of the text only, never inside it.
#include <cstdint>
#include <string>
#include <string_view>

namespace server {

inline constexpr std::string_view fenced_error_prefix = "fenced: ";

// Whether a commit's error says that its batch was fenced (a newer owner claimed the game).
inline bool is_fenced(std::string_view error) {
    return error.starts_with(fenced_error_prefix);
}

// The error of a batch fenced out of `game_id`: the store holds fence `stored`, the batch `mine`
// ("fenced: game g_x was claimed with fence 7, this node holds 5").
inline std::string fenced_error(std::string_view game_id, std::int64_t stored, std::int64_t mine) {
    return std::string(fenced_error_prefix) + "game " + std::string(game_id) +
           " was claimed with fence " + std::to_string(stored) + ", this node holds " +
           std::to_string(mine);
}

}  // namespace server
