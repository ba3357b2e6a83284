#include "server/puzzles/puzzle_collection.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <utility>

namespace server {

using core::puzzles::Puzzle;

PuzzleCollection PuzzleCollection::unavailable(std::string reason) {
    PuzzleCollection collection;
    collection.problem_ = reason.empty() ? "no puzzles" : std::move(reason);
    return collection;
}

PuzzleCollection::PuzzleCollection(const protocol::PuzzleBank& bank) {
    for (const auto& puzzle : bank.puzzles) {
        by_game_[static_cast<std::size_t>(puzzle.game)].push_back(puzzle);
    }
    for (auto& puzzles : by_game_) {
        std::sort(puzzles.begin(), puzzles.end(),
                  [](const Puzzle& a, const Puzzle& b) { return a.id < b.id; });
    }
}

std::size_t PuzzleCollection::size() const {
    std::size_t n = 0;
    for (const auto& puzzles : by_game_) {
        n += puzzles.size();
    }
    return n;
}

const Puzzle* PuzzleCollection::daily(core::VariantId game, std::int64_t day) const {
    const auto& puzzles = of(game);
    if (puzzles.empty()) {
        return nullptr;
    }
    const auto n = static_cast<std::int64_t>(puzzles.size());
    return &puzzles[static_cast<std::size_t>(((day % n) + n) % n)];
}

const Puzzle* PuzzleCollection::random(core::VariantId game,
                                       const std::vector<std::string_view>& excluded,
                                       std::uint64_t random) const {
    const auto& puzzles = of(game);
    std::vector<const Puzzle*> left;
    left.reserve(puzzles.size());
    for (const auto& puzzle : puzzles) {
        if (std::find(excluded.begin(), excluded.end(), puzzle.id) == excluded.end()) {
            left.push_back(&puzzle);
        }
    }
    if (left.empty()) {
        if (puzzles.empty()) {
            return nullptr;
        }
        return &puzzles[static_cast<std::size_t>(random % puzzles.size())];
    }
    return left[static_cast<std::size_t>(random % left.size())];
}

const Puzzle* PuzzleCollection::find(core::VariantId game, std::string_view id) const {
    const auto& puzzles = of(game);
    const auto it =
        std::lower_bound(puzzles.begin(), puzzles.end(), id,
                         [](const Puzzle& p, std::string_view key) { return p.id < key; });
    return it != puzzles.end() && it->id == id ? &*it : nullptr;
}

PuzzleCollection load_puzzle_collection(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        return PuzzleCollection::unavailable("cannot open the puzzle bank " + path);
    }
    std::stringstream text;
    text << file.rdbuf();
    if (file.bad()) {
        return PuzzleCollection::unavailable("cannot read the puzzle bank " + path);
    }
    const auto bank = protocol::parse_puzzle_bank(text.str());
    if (!bank) {
        return PuzzleCollection::unavailable("the puzzle bank " + path +
                                             " is not valid: " + bank.error());
    }
    return PuzzleCollection(*bank);
}

}  // namespace server
