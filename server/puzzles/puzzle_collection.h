#pragma once
// The puzzles the server serves (issue 25): the bank file `chessence puzzles` wrote
// (protocol/puzzles.h), read and checked once at start, by game. Immutable once made, so every
// HTTP session reads it without a lock. The picks are pure: the day and the random number come
// from the caller.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/puzzles/puzzle.h"
#include "protocol/puzzles.h"

namespace server {

class PuzzleCollection {
public:
    // No puzzles, for `reason` (a missing or bad file; said in the log, not to clients).
    static PuzzleCollection unavailable(std::string reason);
    // The puzzles of a checked bank.
    explicit PuzzleCollection(const protocol::PuzzleBank& bank);

    bool available() const { return problem_.empty(); }
    const std::string& problem() const { return problem_; }

    // The puzzles of `game`, in id order.
    const std::vector<core::puzzles::Puzzle>& of(core::VariantId game) const {
        return by_game_[static_cast<std::size_t>(game)];
    }
    std::size_t size() const;

    // The puzzle of `game` for UTC day `day` (days since 1970-01-01): the same all day for
    // everyone, the next one in id order the day after, round the whole collection. Null when
    // the game has none.
    const core::puzzles::Puzzle* daily(core::VariantId game, std::int64_t day) const;
    // A puzzle of `game` chosen by `random`, not one of `excluded` unless every one is. Null when
    // the game has none.
    const core::puzzles::Puzzle* random(core::VariantId game,
                                        const std::vector<std::string_view>& excluded,
                                        std::uint64_t random) const;
    // The puzzle of `game` with this id, or null.
    const core::puzzles::Puzzle* find(core::VariantId game, std::string_view id) const;

private:
    PuzzleCollection() = default;

    std::array<std::vector<core::puzzles::Puzzle>, 3> by_game_;
    std::string problem_;
};

// Reads and checks the bank at `path` (protocol::parse_puzzle_bank). A file that is missing,
// unreadable or not a valid bank gives an unavailable collection whose problem names the file and
// what is wrong with it; the caller logs it and the server starts all the same.
PuzzleCollection load_puzzle_collection(const std::string& path);

}  // namespace server
