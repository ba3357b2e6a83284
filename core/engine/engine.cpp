#include "core/engine/engine.h"

#include <algorithm>

#include "core/engine/levels.h"
#include "core/engine/sniderman_player.h"
#include "core/engine/transposition.h"
#include "core/engine/variant_search.h"

namespace core::engine {

namespace {

// Per call of choose_move: enough for the searches a move gets at play speed.
constexpr std::size_t choose_move_hash_megabytes = 8;

// The search's share of the limits at `level`: its depth, deadlines and noise.
SearchPlan make_plan(VariantId variant, int level, const SearchLimits& limits,
                     Clock::time_point start, std::uint64_t seed, Clock::time_point& deadline) {
    const LevelSettings settings = level_settings(variant, level);
    SearchPlan plan;
    plan.seed = seed;
    plan.noise_cp = settings.noise_cp;
    plan.blunder_permille = settings.blunder_permille;
    plan.search_moves = limits.search_moves;
    if (settings.max_depth > 0) {
        plan.max_depth = std::min(plan.max_depth, settings.max_depth);
    }
    if (limits.max_depth > 0) {
        plan.max_depth = std::min(plan.max_depth, limits.max_depth);
    }
    auto move_time = limits.move_time;
    const bool unlimited = move_time.count() <= 0 && limits.max_nodes == 0 &&
                           limits.max_depth == 0 && limits.stop == nullptr;
    if (unlimited) {
        move_time = default_move_time;
    }
    deadline = Clock::time_point::max();
    if (move_time.count() > 0) {
        const auto share = std::max<std::chrono::microseconds>(
            std::chrono::microseconds(1000),
            std::chrono::duration_cast<std::chrono::microseconds>(move_time) *
                settings.time_percent / 100);
        deadline = start + share;
        // An iteration started after half the time rarely ends before the deadline.
        plan.soft_deadline = start + share / 2;
    }
    return plan;
}

// The level's share of a node limit (0: none), so that levels differ under node limits too.
std::uint64_t node_share(VariantId variant, int level, std::uint64_t max_nodes) {
    if (max_nodes == 0) {
        return 0;
    }
    const auto percent = static_cast<std::uint64_t>(level_settings(variant, level).time_percent);
    return std::max<std::uint64_t>(1, max_nodes * percent / 100);
}

SearchResult to_result(const SearchReport& report, Clock::time_point start) {
    SearchResult result;
    result.best_move = report.pv.empty() ? std::string() : report.pv.front();
    result.depth = report.depth;
    result.nodes = report.nodes;
    result.pv = report.pv;
    result.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
    result.score_cp = report.score;
    if (is_mate_score(report.score)) {
        result.mate_in = mate_in_moves(report.score);
    }
    return result;
}

}  // namespace

Expected<SearchResult> choose_move(const Game& game, int level, const SearchLimits& limits,
                                   std::uint64_t seed) {
    Engine engine(choose_move_hash_megabytes);
    return engine.choose(game, level, limits, seed);
}

Engine::Engine(std::size_t hash_megabytes)
    : table_(std::make_unique<TranspositionTable>(hash_megabytes)) {}

Engine::~Engine() = default;

void Engine::new_game() {
    table_->clear();
}

void Engine::set_hash(std::size_t megabytes) {
    table_ = std::make_unique<TranspositionTable>(megabytes);
}

Expected<SearchResult> Engine::choose(const Game& game, int level, const SearchLimits& limits,
                                      std::uint64_t seed) {
    if (level < min_level || level > max_level) {
        return make_error("the level must be 1 to 8");
    }
    if (game.outcome()) {
        return make_error("the game is over: no move to choose");
    }
    if (game.variant() == VariantId::sniderman) {
        return sniderman_move(game, level, seed);
    }
    const auto start = Clock::now();
    Clock::time_point deadline;
    const SearchPlan plan = make_plan(game.variant(), level, limits, start, seed, deadline);
    Budget budget(node_share(game.variant(), level, limits.max_nodes), deadline, limits.stop);
    ReportFn report;
    if (limits.on_iteration) {
        report = [&](const SearchReport& r) { limits.on_iteration(to_result(r, start)); };
    }
    SearchReport found;
    if (game.variant() == VariantId::chessence) {
        const auto history = chessence_history(game);
        if (!history) {
            return make_error(history.error());
        }
        found = search_chessence(*history, game.rules(), plan, budget, *table_, report,
                                 chessence_weights_ ? &*chessence_weights_ : nullptr);
    } else {
        const auto history = chesica_history(game);
        if (!history) {
            return make_error(history.error());
        }
        found = search_chesica(*history, game.rules(), plan, budget, *table_, report,
                               chesica_weights_ ? &*chesica_weights_ : nullptr);
    }
    if (found.pv.empty()) {
        if (!limits.search_moves.empty()) {
            return make_error("none of the search moves is legal here");
        }
        return make_error("the game is over: no move to choose");
    }
    return to_result(found, start);
}

}  // namespace core::engine
