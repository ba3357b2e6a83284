#pragma once
// The puzzle endpoints (issue 25, docs/protocol.md "HTTP"):
//   GET /api/puzzles                      how many puzzles of each game
//   GET /api/puzzles/<game>/daily         the puzzle of the UTC day
//   GET /api/puzzles/<game>/random[?exclude=<id>,<id>…]
//   GET /api/puzzles/<game>/<id>
// Errors carry a stable `code` with the text: unknown_game and no_such_puzzle (404), no_puzzles
// (404: the bank has none of that game), puzzles_unavailable (503: no valid bank was loaded).
#include <cstdint>
#include <optional>
#include <string_view>

#include "server/net/http_reply.h"
#include "server/puzzles/puzzle_collection.h"

namespace server {

// When and by what chance a request is answered: the UTC day (days since 1970-01-01) for
// `daily`, a random number for `random`.
struct PuzzleMoment {
    std::int64_t day = 0;
    std::uint64_t random = 0;
};

// The moment now: the system clock's day and a number from this thread's generator.
PuzzleMoment puzzle_moment_now();

// The reply for a puzzle path, or nothing when `target` is not one.
std::optional<HttpReply> serve_puzzle_api(const PuzzleCollection& puzzles, std::string_view target,
                                          const PuzzleMoment& moment);

}  // namespace server
