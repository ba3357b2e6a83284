#pragma once
// Where `chessence puzzles` finds its candidates, and how it gathers the puzzles of many sources
// (a self-play game, a Sniderman deal) on several threads into the same bank as on one.
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/puzzles/finder.h"
#include "core/record.h"

namespace cli {

struct SourceSettings {
    core::VariantId game = core::VariantId::chessence;
    core::RuleSet rules = core::RuleSet::house;
    std::uint64_t seed = 1;
    std::uint64_t move_nodes = 20'000;  // each self-play move
    int min_level = 3;                  // each side's level, drawn per game from min..max
    int max_level = 6;
    int random_plies = 2;      // random moves that open a game
    int skip_plies = 10;       // positions before this ply are not examined
    int max_plies = 200;       // a game is cut off here
    int per_source = 3;        // puzzles from one game (Sniderman: one deal gives at most one)
    std::vector<int> objects;  // Sniderman: the objects tried on each deal, in this order
    // Chessence, Chesica: the finished games to take positions from instead of self-play (records
    // of this game only, in file order; --records); none: self-play.
    std::shared_ptr<const std::vector<core::Record>> records;
};

// The records of `game` among `records` (its Variant tag), in order.
std::vector<core::Record> records_of(const std::vector<core::Record>& records,
                                     core::VariantId game);

// What one source gave: its puzzles in the order found, and how many positions were examined.
struct SourceResult {
    std::vector<core::puzzles::Puzzle> puzzles;
    std::uint64_t examined = 0;
    // Positions examined and turned down, by Rejection (none: the puzzles found twice).
    std::array<std::uint64_t, 5> rejected{};
    std::uint64_t proved = 0;  // positions that passed the screen (Chessence, Chesica)
    std::string error;         // a finder error (then the run fails)
};

class EnginePlayer;

// What one thread keeps from source to source: the finder, and an engine player per side and
// level. A player's table is cleared when its game starts, so a kept one plays as a new one
// would; keeping them saves allocating two tables a game (which fragmented the heap).
class SourceWorker {
public:
    explicit SourceWorker(const core::puzzles::FinderSettings& settings);
    ~SourceWorker();
    SourceWorker(const SourceWorker&) = delete;
    SourceWorker& operator=(const SourceWorker&) = delete;

    // The puzzles of source `index`: a self-play game of seed game_seed(seed, index), or the
    // index-th of `records` (its start too), its positions from skip_plies on (after a puzzle, the
    // next four plies are skipped: they continue its line); or the Sniderman deal of that seed with
    // each object in turn until one makes a puzzle. A record is replayed until its end or its first
    // move the rules refuse. `cancelled` stops early (the result is then discarded).
    SourceResult run(const SourceSettings& settings, std::uint64_t index,
                     const std::atomic<bool>& cancelled);

private:
    SourceResult from_self_play(const SourceSettings& settings, std::uint64_t index,
                                const std::atomic<bool>& cancelled);
    SourceResult from_record(const SourceSettings& settings, std::uint64_t index,
                             const std::atomic<bool>& cancelled);
    SourceResult from_deal(const SourceSettings& settings, std::uint64_t index,
                           const std::atomic<bool>& cancelled);
    // Examines the position `game` reached (ply `ply`) unless it is before `next_ply` or the
    // source has its puzzles; a puzzle moves `next_ply` past its line.
    void examine(const SourceSettings& settings, const core::Game& game, int& next_ply,
                 SourceResult& result, const std::atomic<bool>& cancelled);
    EnginePlayer& player(int side, int level);

    core::puzzles::Finder finder_;
    std::array<std::map<int, std::unique_ptr<EnginePlayer>>, 2> players_;
};

// Gathers source results in index order, whatever order they come in, dropping duplicates
// (duplicate_key), until `wanted` puzzles or `max_sources` sources: the bank is the same on any
// number of threads. Thread-safe.
class Collector {
public:
    Collector(std::size_t wanted, std::uint64_t max_sources);
    // The next source to work on, or nothing when the work is done.
    std::optional<std::uint64_t> take();
    struct Progress {
        std::uint64_t sources = 0;  // merged so far (a prefix)
        std::size_t puzzles = 0;
        std::uint64_t examined = 0;
        std::array<std::uint64_t, 5> rejected{};
        std::uint64_t proved = 0;
    };
    // The result of source `index`; returns the progress so far.
    Progress put(std::uint64_t index, SourceResult result);
    bool done() const { return done_.load(); }
    const std::atomic<bool>& cancelled() const { return done_; }

    // After the run: the puzzles, the sources used (a prefix 0..n-1), positions examined in them,
    // and the first error.
    const std::vector<core::puzzles::Puzzle>& puzzles() const { return puzzles_; }
    std::uint64_t sources_used() const { return merged_; }
    std::uint64_t examined() const { return examined_; }
    const std::array<std::uint64_t, 5>& rejected() const { return rejected_; }
    std::uint64_t proved() const { return proved_; }
    const std::string& error() const { return error_; }

private:
    std::mutex mutex_;
    std::size_t wanted_;
    std::uint64_t max_sources_;
    std::uint64_t next_ = 0;
    std::uint64_t merged_ = 0;
    std::uint64_t examined_ = 0;
    std::array<std::uint64_t, 5> rejected_{};
    std::uint64_t proved_ = 0;
    std::map<std::uint64_t, SourceResult> waiting_;
    std::set<std::string> keys_;
    std::vector<core::puzzles::Puzzle> puzzles_;
    std::string error_;
    std::atomic<bool> done_{false};
};

}  // namespace cli
