#include "puzzle_sources.h"

#include <utility>

#include "core/engine/plan.h"
#include "core/sniderman/deal.h"
#include "core/sniderman/position.h"
#include "players.h"
#include "selfplay.h"

namespace cli {

namespace {

namespace sn = core::sniderman;

// Plies skipped after a puzzle: the rest of its line is not a new puzzle.
constexpr int plies_after_puzzle = 5;

}  // namespace

SourceWorker::SourceWorker(const core::puzzles::FinderSettings& settings) : finder_(settings) {}

SourceWorker::~SourceWorker() = default;

EnginePlayer& SourceWorker::player(int side, int level) {
    auto& kept = players_[static_cast<std::size_t>(side)][level];
    if (!kept) {
        kept = std::make_unique<EnginePlayer>(level);
    }
    return *kept;
}

SourceResult SourceWorker::from_self_play(const SourceSettings& settings, std::uint64_t index,
                                          const std::atomic<bool>& cancelled) {
    const std::uint64_t seed = game_seed(settings.seed, index);
    core::engine::SeededRandom levels(sn::derive_seed(seed, 0x1E7E1));
    const auto span = static_cast<std::uint32_t>(settings.max_level - settings.min_level + 1);
    EnginePlayer& first = player(0, settings.min_level + static_cast<int>(levels.below(span)));
    EnginePlayer& second = player(1, settings.min_level + static_cast<int>(levels.below(span)));
    SelfPlaySettings play;
    play.variant = settings.game;
    play.rules = settings.rules;
    play.limits.max_nodes = settings.move_nodes;
    play.random_plies = settings.random_plies;
    play.max_plies = settings.max_plies;
    SourceResult result;
    int next_ply = settings.skip_plies;
    play_game(play, {&first, &second}, seed, [&](const core::Game& game) {
        examine(settings, game, next_ply, result, cancelled);
    });
    return result;
}

void SourceWorker::examine(const SourceSettings& settings, const core::Game& game, int& next_ply,
                           SourceResult& result, const std::atomic<bool>& cancelled) {
    const int ply = static_cast<int>(game.moves().size());
    if (cancelled.load() || !result.error.empty() || ply < next_ply ||
        static_cast<int>(result.puzzles.size()) >= settings.per_source) {
        return;
    }
    ++result.examined;
    const auto verdict = finder_.examine({settings.game, game.rules(), game.fen(), 0});
    if (!verdict) {
        result.error = game.fen() + ": " + verdict.error();
    } else if (verdict->puzzle) {
        ++result.proved;
        result.puzzles.push_back(*verdict->puzzle);
        next_ply = ply + plies_after_puzzle;
    } else {
        result.proved += verdict->proof.nodes != 0 ? 1 : 0;
        ++result.rejected[static_cast<std::size_t>(verdict->rejection)];
    }
}

SourceResult SourceWorker::from_record(const SourceSettings& settings, std::uint64_t index,
                                       const std::atomic<bool>& cancelled) {
    SourceResult result;
    if (index >= settings.records->size()) {
        return result;
    }
    const core::Record& record = (*settings.records)[index];
    core::GameOptions options;
    options.rules = settings.rules;
    if (const auto tagged = record.tag("RuleSet")) {
        options.rules = core::parse_rule_set(*tagged).value_or(settings.rules);
    }
    if (const auto fen = record.tag("FEN")) {
        options.fen = *fen;
    }
    auto made = core::make_game(settings.game, options);
    if (!made) {
        return result;  // a start position the rules refuse: nothing to examine
    }
    core::Game& game = **made;
    int next_ply = settings.skip_plies;
    examine(settings, game, next_ply, result, cancelled);  // the start, with --skip-plies 0
    for (const auto& move : record.moves) {
        if (cancelled.load() || !result.error.empty() || !game.play(move)) {
            break;
        }
        examine(settings, game, next_ply, result, cancelled);
    }
    return result;
}

std::vector<core::Record> records_of(const std::vector<core::Record>& records,
                                     core::VariantId game) {
    std::vector<core::Record> of_game;
    for (const auto& record : records) {
        if (record.tag("Variant") == std::optional<std::string>(core::variant_name(game))) {
            of_game.push_back(record);
        }
    }
    return of_game;
}

SourceResult SourceWorker::from_deal(const SourceSettings& settings, std::uint64_t index,
                                     const std::atomic<bool>& cancelled) {
    const auto fen = sn::format_position(sn::deal(game_seed(settings.seed, index)));
    SourceResult result;
    const std::size_t count = settings.objects.size();
    for (std::size_t i = 0; i < count && !cancelled.load(); ++i) {
        // Each deal starts at another object, so that the bank has all of them.
        const int object = settings.objects[(index + i) % count];
        ++result.examined;
        const auto verdict = finder_.examine({settings.game, settings.rules, fen, object});
        if (!verdict) {
            result.error = fen + " object " + std::to_string(object) + ": " + verdict.error();
            break;
        }
        if (verdict->puzzle) {
            result.puzzles.push_back(*verdict->puzzle);
            break;
        }
        ++result.rejected[static_cast<std::size_t>(verdict->rejection)];
    }
    return result;
}

SourceResult SourceWorker::run(const SourceSettings& settings, std::uint64_t index,
                               const std::atomic<bool>& cancelled) {
    if (settings.game == core::VariantId::sniderman) {
        return from_deal(settings, index, cancelled);
    }
    return settings.records ? from_record(settings, index, cancelled)
                            : from_self_play(settings, index, cancelled);
}

Collector::Collector(std::size_t wanted, std::uint64_t max_sources)
    : wanted_(wanted), max_sources_(max_sources) {
    if (wanted_ == 0 || max_sources_ == 0) {
        done_ = true;
    }
}

std::optional<std::uint64_t> Collector::take() {
    const std::lock_guard lock(mutex_);
    if (done_.load() || next_ >= max_sources_) {
        return std::nullopt;
    }
    return next_++;
}

Collector::Progress Collector::put(std::uint64_t index, SourceResult result) {
    const std::lock_guard lock(mutex_);
    waiting_.emplace(index, std::move(result));
    for (auto it = waiting_.find(merged_); !done_.load() && it != waiting_.end();
         it = waiting_.find(merged_)) {
        SourceResult next = std::move(it->second);
        waiting_.erase(it);
        ++merged_;
        if (!next.error.empty()) {
            error_ = "source " + std::to_string(merged_ - 1) + ": " + next.error;
            done_ = true;
            break;
        }
        examined_ += next.examined;
        proved_ += next.proved;
        for (std::size_t i = 0; i < rejected_.size(); ++i) {
            rejected_[i] += next.rejected[i];
        }
        for (auto& puzzle : next.puzzles) {
            const auto key = core::puzzles::duplicate_key(puzzle.game, puzzle.fen, puzzle.object);
            if (puzzles_.size() < wanted_ && keys_.insert(key).second) {
                puzzles_.push_back(std::move(puzzle));
            } else {
                ++rejected_[0];
            }
        }
        if (puzzles_.size() >= wanted_ || merged_ >= max_sources_) {
            done_ = true;
        }
    }
    return {merged_, puzzles_.size(), examined_, rejected_, proved_};
}

}  // namespace cli
